#!/usr/bin/env bash
# Run 177 (session 31): the same add-scalar workload and n on four pipelines of one process
# (bench/instance_spread), to see whether two pipelines differ at one n by more than one
# pipeline's halves of the rounds do. Three passes: as the sweep does (host buffers shared), host
# buffers per pipeline, and CUDA_DEVICE_MAX_CONNECTIONS=32. On the GPU machine, from the root:
#   bash docs/evidence/run177/run.sh   (with .device.txz of scripts/device-bundle --pack
#   --only=instance_spread,streampipe carried)
set -u
[ -d .device ] || tar -xJf .device.txz
source .device/env.sh
out="${OUT:-/tmp/out}"; mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > "$out/gpu.txt" 2>&1
start=$SECONDS
run() {
  local name=$1; shift
  "$@" > "$out/$name.csv" 2> "$out/$name.log"
  echo "$name rc=$? at $((SECONDS - start)) s"
}
run shared .device/bin/instance_spread
run host .device/bin/instance_spread --host-per-instance
CUDA_DEVICE_MAX_CONNECTIONS=32 run q32 .device/bin/instance_spread
run shared2 .device/bin/instance_spread
