#!/usr/bin/env bash
# Run 180 (session 31): bench/instance_spread after a review's mends (every pipeline at every n
# checked against the CPU on a NaN-filled output after the rounds; even rounds; the slowest
# instance per half on stderr), a short pass with host buffers shared and one with a buffer per
# pipeline. On the GPU machine, from the root (with .device.txz of scripts/device-bundle --pack
# --only=instance_spread carried):
#   bash docs/evidence/run180/run.sh
set -u
[ -d .device ] || tar -xJf .device.txz
source .device/env.sh
out="${OUT:-/tmp/out}"; mkdir -p "$out"
start=$SECONDS
for pass in shared host; do
  extra=""; [ $pass = host ] && extra=--host-per-instance
  .device/bin/instance_spread --iters=1,500 --rounds=2 $extra > "$out/$pass.csv" 2> "$out/$pass.log"
  echo "$pass rc=$? at $((SECONDS - start)) s"
done
