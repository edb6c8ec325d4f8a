# Run 249 (session 44): after the read-through's mends (lib/cuda/pipeline.cpp: the source's
# error context built only on an error; pipeline_test: a reference computed once), the two GPU
# suites they touch on one H100.
# Criterion, written before the run: pipeline_test 39 passed and the two-device test skipped (one
# GPU), adaptive_gpu_test 10 passed.
#   bash docs/evidence/run249/run.sh   (on the GPU machine, .device.txz carried)
set -u
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run249 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$?"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
tar -C $OUT -czf $OUT/run249.tgz run249 && rm -rf $R
