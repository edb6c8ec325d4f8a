# Run 229 (session 40): a neighbour's second visit (exploration.second_visit_batches), an A/B.
# A: the default (0, one visit of each neighbour per derivation); B: --second-visit-batches=40.
# Symmetric sweeps (bench/sweeps/symmetric.toml) in ABBA order while time lasts (the call is run
# twice: `bash docs/evidence/run229/run.sh 1` then `... 2`), adaptive runs traced, then
# adaptive_gpu_test once on the bundle (3aa149b).
# Criterion, written before the run, over all the pairs the two calls complete:
#   primary: B's points over 10 % (calibrated, both issue modes) at most 0.7 x A's in total, and
#     B within 10 % at every point in at least as many sweep-modes as A;
#   no harm: B's calibrated median error on average over its sweep-modes at most 0.2 points
#     above A's, B's choice mean on average at least A's - 0.002, and B's worst choice >= 0.95
#     in at least as many sweep-modes as A's less one.
# Both met: the default becomes 40 (library and sweep). Otherwise it stays 0.
#   bash docs/evidence/run229/run.sh CALL
set -u
SECONDS=0
C=${1:-1}
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run229 && mkdir -p $R && nvidia-smi > $R/gpu-$C.txt
P=docs/evidence/run117/h100.toml
i=0
for side in A B B A A B B A; do
  [ $SECONDS -lt 450 ] || break
  i=$((i + 1))
  flag=""; [ $side = B ] && flag="--second-visit-batches=40"
  timeout $((580 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    $flag --profile=$P --output=$R/sweep-$C$side$i.csv --summary=$R/summary-$C$side$i.md \
    --adaptive-trace=$R/trace-$C$side$i.csv 2> $R/sweep-$C$side$i.log
  echo "sweep $C$side$i rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-$C$side$i.log | cut -c1-120
done
if [ $C = 2 ] && [ $SECONDS -lt 500 ]; then
  timeout $((590 - SECONDS)) .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/tests.txt 2>&1
  echo "adaptive_gpu_test rc=$? ${SECONDS}s"; tail -3 $R/tests.txt
fi
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run229-$C.tgz run229 && rm -rf $R
