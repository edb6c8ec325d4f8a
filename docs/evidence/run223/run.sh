# Run 223 (session 39): the final code (bf0335f: run 221's library; the continuous test's bound of
# 8 samples where the host kept up, and its printed shape) on the GPU. The full bundle, carried
# after `scripts/device-slim --keep=run223,run117`.
# Criteria, written before the run:
#  A. every GPU suite passes: adaptive 8, cli_gpu 4, core 242, resources 7, fault 3, histogram 6,
#     pipeline 36, video 124;
#  B. the adaptive suite passes in at least 3 of 4 more runs (failures print the events, and the
#     continuous test each run's shape).
# No criterion: issues 4 and 5 once (the goals as in run 220's script), then symmetric sweeps from
# bench/sweeps/symmetric.toml with --adaptive-trace while time lasts (rows of docs/results.md).
#   bash docs/evidence/run223/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run223 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/adaptive_gpu_test.log | head -28
grep "^run [01]:" $R/tests/adaptive_gpu_test.log | cut -c1-60
for i in 1 2 3 4; do
  .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/adaptive-$i.log 2>&1
  echo "adaptive $i rc=$? ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)' $R/adaptive-$i.log | tr '\n' ' ')"
  grep -A14 "Failure" $R/adaptive-$i.log | head -28
  grep "^run [01]:" $R/adaptive-$i.log | cut -c1-60
done
timeout 100 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all-1.txt 2>&1
echo "adaptive_bench all rc=$? ${SECONDS}s"
grep -E "calibrated|^(1|50|200|500|1000|3000) |per-phase best|faster|^adaptive" $R/adaptive-all-1.txt
timeout 50 .device/bin/histogram_bench sizes --kernel=shared --cont-batches=300 \
  > $R/histogram-sizes-1.txt 2>&1
echo "histogram_bench sizes rc=$? ${SECONDS}s"
grep -E "^(176|352|704|1920)" $R/histogram-sizes-1.txt
P=docs/evidence/run117/h100.toml
i=0
while [ $SECONDS -lt 420 ]; do
  i=$((i + 1))
  timeout $((520 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md \
    --adaptive-trace=$R/trace-$i.csv 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run223.tgz run223 && rm -rf $R
