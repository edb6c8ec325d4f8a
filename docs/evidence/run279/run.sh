# Run 279 (session 49): the final code (flag parsing changed after run 278), on whatever GPU
# `device` lends.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 271, resources 8, fault 4,
#     histogram 6, pipeline 45 and the two-device test skipped, video 127;
#  2. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0.
#   bash docs/evidence/run279/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run279 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "2. demo rc=$? ${SECONDS}s"; tail -2 $R/demo.txt
tar -C $OUT -czf $OUT/run279.tgz run279 && rm -rf $R
