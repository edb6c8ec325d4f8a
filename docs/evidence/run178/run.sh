#!/usr/bin/env bash
# Run 178 (session 31): run 177's first pass again, every timed batch written (--batches), to
# see whether a pipeline slow at one n for a while is slow alone or with the other pipelines
# measured in the same rounds. On the GPU machine, from the root (with .device.txz of
# scripts/device-bundle --pack --only=instance_spread,streampipe carried):
#   bash docs/evidence/run178/run.sh
set -u
[ -d .device ] || tar -xJf .device.txz
source .device/env.sh
out="${OUT:-/tmp/out}"; mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv > "$out/gpu.txt" 2>&1
start=$SECONDS
.device/bin/instance_spread --batches="$out/batches.csv" > "$out/shared.csv" 2> "$out/shared.log"
echo "shared rc=$? at $((SECONDS - start)) s"
gzip -9 "$out/batches.csv"
