# Run 173 (session 30: adaptive.contemporaneous_visits, a visit carried to n*'s level through n*'s
# batches beside it): four whole-grid sweeps on run 117's profile. The option moves predictions
# only, and every sweep writes the prediction without it too (pred_calibrated_all_star): each
# sweep is its own exact pair on the same adaptive runs. The core tests first.
# Decided before the run (and for run 174 on the next call, judged over both runs' sweeps): the
# option stays if, over all sweep-modes, (1) there are fewer points over 10 % with it, over the
# whole grid and over the symmetric add-scalar grid; (2) more than half of the points it moves by
# over 0.5 % move toward the rounds' median; (3) the whole grid's maxima are larger with it in no
# more sweep-modes than they are smaller.
#   bash docs/evidence/run173/run.sh     # with .device.txz carried; everything in $OUT/run173.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
N=${RUN:-run173}
R=$OUT/$N && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/bin/core_test --gtest_brief=1 > $R/core-test.txt 2>&1; echo "core_test rc=$? ${SECONDS}s"; tail -n 2 $R/core-test.txt
P=docs/evidence/run117/h100.toml
for i in 1 2 3 4; do
  [ $SECONDS -gt 450 ] && break
  timeout $((590 - SECONDS)) .device/bin/streampipe sweep --grid=all --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/$N.tgz $N && rm -rf $R
