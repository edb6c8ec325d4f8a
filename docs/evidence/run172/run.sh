# Run 172 (session 29: adaptive.carry_anchor from a full window of n*'s samples only, the rule
# fixed after run 171, checked on a fresh lease): four whole-grid sweeps on run 117's profile. The option moves predictions
# only, and every sweep writes the prediction without it too (pred_calibrated_measured_anchor):
# each sweep is its own exact pair on the same adaptive runs. The core tests first.
# Decided before the run: the option stays if, over the four sweeps, the whole grid has fewer
# points over 10 % with it, more than half of the points it moves move toward the rounds' median,
# and the maxima are larger with it in no more sweep-modes than they are smaller.
#   bash docs/evidence/run172/run.sh     # with .device.txz carried; everything in $OUT/run172.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run172 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/bin/core_test --gtest_brief=1 > $R/core-test.txt 2>&1; echo "core_test rc=$? ${SECONDS}s"; tail -n 2 $R/core-test.txt
P=docs/evidence/run117/h100.toml
for i in 1 2 3 4; do
  [ $SECONDS -gt 470 ] && break
  timeout $((590 - SECONDS)) .device/bin/streampipe sweep --grid=all --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run172.tgz run172 && rm -rf $R
