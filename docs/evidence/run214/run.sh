# Run 214 (session 38): `streampipe sweep --config=FILE` (9bd35d6) and the controller's learned
# level's check (bcdace8: a workload that steps while n*'s level is learned is found by one
# non-streamed batch and re-measured). The full bundle, carried after
# `scripts/device-slim --keep=run214,run117`.
# Criteria, written before the run:
#  A. every GPU suite passes: adaptive 8, cli_gpu 4 (the new AConfigFileGivesThePlanAndAFlagWinsOverIt),
#     core 237, resources 7, fault 3, histogram 6, pipeline 36, video 124;
#  B. the adaptive suite passes in each of 4 more runs (its step test now prints every event
#     with its batch where it fails);
#  C. `sweep --config=bench/sweeps/smoke.toml` with --profile/--output/--summary flags exits 0,
#     writes 40 rows (10 configurations x n = 1, 2, 4, 8), each recording the file's settings
#     (per-visit=3 held=1 warmup=1 adaptive-batches=24).
# No criterion: issue 4's `adaptive_bench all --batches=400` once (the controller changed), and
# symmetric sweeps from bench/sweeps/symmetric.toml while time lasts (rows of docs/results.md).
#   bash docs/evidence/run214/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run214 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for i in 1 2 3 4; do
  .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/adaptive-$i.log 2>&1
  echo "adaptive $i rc=$? ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)' $R/adaptive-$i.log | tr '\n' ' ')"
  grep -A12 "Failure" $R/adaptive-$i.log | head -24
done
B=.device/bin/streampipe
P=docs/evidence/run117/h100.toml
$B sweep --config=bench/sweeps/smoke.toml --profile=$P --output=$R/sweep-smoke.csv \
  --summary=$R/summary-smoke.md 2> $R/sweep-smoke.log
echo "smoke rc=$? ${SECONDS}s rows=$(($(wc -l < $R/sweep-smoke.csv) - 1))" \
  "with the file's settings: $(grep -c 'per-visit=3 held=1 warmup=1 adaptive-batches=24 ' $R/sweep-smoke.csv)"
grep -E "calibrated median|### Settings" -A1 $R/summary-smoke.md | head -4
timeout 160 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all.txt 2>&1
echo "adaptive_bench all rc=$? ${SECONDS}s"
grep -E "^(1|50|200|500|1000|3000) |per-phase best|faster" $R/adaptive-all.txt
i=0
while [ $SECONDS -lt 470 ]; do
  i=$((i + 1))
  timeout $((560 - SECONDS)) $B sweep --config=bench/sweeps/symmetric.toml --profile=$P \
    --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run214.tgz run214 && rm -rf $R
