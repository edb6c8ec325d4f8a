# Run 217 (session 38): the final code (5e176f9: the second review's mends to the learned level's
# check) on the GPU. The full bundle, carried after `scripts/device-slim --keep=run217,run117`.
# Criteria, written before the run:
#  A. every GPU suite passes: adaptive 8, cli_gpu 4, core 239, resources 7, fault 3, histogram 6,
#     pipeline 36, video 124;
#  B. the adaptive suite passes in at least 3 of 4 more runs (failures print the events).
# No criterion: symmetric sweeps from bench/sweeps/symmetric.toml with --adaptive-trace while
# time lasts (rows of docs/results.md; the traces show each check's lone `measure` batch).
#   bash docs/evidence/run217/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run217 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/adaptive_gpu_test.log | head -28
for i in 1 2 3 4; do
  .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/adaptive-$i.log 2>&1
  echo "adaptive $i rc=$? ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)' $R/adaptive-$i.log | tr '\n' ' ')"
  grep -A14 "Failure" $R/adaptive-$i.log | head -28
done
P=docs/evidence/run117/h100.toml
i=0
while [ $SECONDS -lt 330 ]; do
  i=$((i + 1))
  timeout $((420 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md \
    --adaptive-trace=$R/trace-$i.csv 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run217.tgz run217 && rm -rf $R
