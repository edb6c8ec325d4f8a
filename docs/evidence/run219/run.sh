# Run 219 (session 38): e063ac9, the read-through's refactor (the sweep's Settings holds its
# SweepPlan; behaviour unchanged), on the GPU. The full bundle, carried after
# `scripts/device-slim --keep=run219,run117`.
# Criteria, written before the run: every GPU suite passes (adaptive 8, cli_gpu 4, core 239,
# resources 7, fault 3, histogram 6, pipeline 36, video 124); `sweep --config=bench/sweeps/smoke.toml`
# exits 0 with 40 rows recording the file's settings, as in run 214.
#   bash docs/evidence/run219/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run219 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -28
.device/bin/streampipe sweep --config=bench/sweeps/smoke.toml --profile=docs/evidence/run117/h100.toml \
  --output=$R/sweep-smoke.csv --summary=$R/summary-smoke.md 2> $R/sweep-smoke.log
echo "smoke rc=$? ${SECONDS}s rows=$(($(wc -l < $R/sweep-smoke.csv) - 1))" \
  "with the file's settings: $(grep -c 'per-visit=3 held=1 warmup=1 adaptive-batches=24 ' $R/sweep-smoke.csv)"
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run219.tgz run219 && rm -rf $R
