# Run 215 (session 38): the code after run 214 (the learned level's check in batches one at a time
# only; the adaptive GPU tests' bounds and logs, below). The full bundle, carried after
# `scripts/device-slim --keep=run215,run117`.
# Criteria, written before the run:
#  A. every GPU suite passes: adaptive 8, cli_gpu 4, core 237, resources 7, fault 3, histogram 6,
#     pipeline 36, video 124;
#  B. the adaptive suite passes in at least 3 of 4 more runs (its failures print the controller's
#     events with their batches).
# No criterion: one whole grid from bench/sweeps/paper.toml (both issue modes), then symmetric
# sweeps from bench/sweeps/symmetric.toml while time lasts (rows of docs/results.md).
#   bash docs/evidence/run215/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run215 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/adaptive_gpu_test.log | head -28
for i in 1 2 3 4; do
  .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/adaptive-$i.log 2>&1
  echo "adaptive $i rc=$? ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)' $R/adaptive-$i.log | tr '\n' ' ')"
  grep -A14 "Failure" $R/adaptive-$i.log | head -28
done
B=.device/bin/streampipe
P=docs/evidence/run117/h100.toml
timeout $((540 - SECONDS)) $B sweep --config=bench/sweeps/paper.toml --profile=$P \
  --output=$R/sweep-all1.csv --summary=$R/summary-all1.md 2> $R/sweep-all1.log
echo "sweep all1 rc=$? ${SECONDS}s"
i=0
while [ $SECONDS -lt 480 ]; do
  i=$((i + 1))
  timeout $((570 - SECONDS)) $B sweep --config=bench/sweeps/symmetric.toml --profile=$P \
    --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run215.tgz run215 && rm -rf $R
