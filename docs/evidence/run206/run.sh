# Run 206 (session 36): the final code (the second review's mends: locks, --resume checks,
# histogram --trace before the output, duplicates measured once) on the GPU: every GPU suite in
# the full bundle, carried after `scripts/device-slim --keep=run206,run117`.
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included.
#   bash docs/evidence/run206/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run206 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h "listed twice\|repetitions=2, this\|resuming" $R/tests/cli_gpu_test.log | head -5
tar -C $OUT -czf $OUT/run206.tgz run206 && rm -rf $R
