# Run 204 (session 36): the final code (c248e7f: histogram --trace checked first and staged; the
# GPU CLI tests as cli_gpu_test) on the GPU: every GPU suite in the full bundle, carried after
# `scripts/device-slim --keep=run204,run117`.
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included.
#   bash docs/evidence/run204/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run204 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
tar -C $OUT -czf $OUT/run204.tgz run204 && rm -rf $R
