# Run 235 (session 41): every GPU suite on the final code after the closing read-through's
# refactor (the issue line in one helper, trace_replay on the library's key and settings
# parser; behaviour unchanged: every committed trace replays identically on the CPU).
# Criterion, written before the run: every GPU suite passes (adaptive 8, cli_gpu 4, core 251,
# resources 7, fault 3, histogram 6, pipeline 36, video 124).
#   bash docs/evidence/run235/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run235 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -28
tar -C $OUT -czf $OUT/run235.tgz run235 && rm -rf $R
