# Run 232 (session 40): the final code (fb6ab4d: one helper starts a visit's comparison, behaviour
# unchanged) on the GPU. The full bundle, carried after `scripts/device-slim --keep=run232`.
# Criterion, written before the run: every GPU suite passes (adaptive 8, cli_gpu 4, core 246,
# resources 7, fault 3, histogram 6, pipeline 36, video 124).
#   bash docs/evidence/run232/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run232 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -28
tar -C $OUT -czf $OUT/run232.tgz run232 && rm -rf $R
