# Run 231 (session 40): the final code (dacb84e: the review's mends of the second visit) on the
# GPU. The full bundle, carried after `scripts/device-slim --keep=run231,run117`.
# Criteria, written before the run:
#  A. every GPU suite passes: adaptive 8, cli_gpu 4, core 246, resources 7, fault 3, histogram 6,
#     pipeline 36, video 124;
#  B. one symmetric sweep with --second-visit-batches=40: every adaptive run's calibration
#     complete, and the neighbours of n* with two visits' samples (4) in the log's "adaptive
#     measured" lines wherever a second visit was owed.
# No criterion on the prediction: one sweep A (the default) beside it for the rows, nothing more.
#   bash docs/evidence/run231/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run231 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/adaptive_gpu_test.log | head -28
P=docs/evidence/run117/h100.toml
for side in B A; do
  flag=""; [ $side = B ] && flag="--second-visit-batches=40"
  [ $SECONDS -lt 250 ] || break
  timeout $((330 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    $flag --profile=$P --output=$R/sweep-$side.csv --summary=$R/summary-$side.md \
    --adaptive-trace=$R/trace-$side.csv 2> $R/sweep-$side.log
  echo "sweep $side rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): calibrated' $R/sweep-$side.log | cut -c1-100
  grep -c "calibration complete" $R/sweep-$side.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run231.tgz run231 && rm -rf $R
