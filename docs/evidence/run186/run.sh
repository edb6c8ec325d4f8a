# Run 186 (session 32): A/B of dropping the former n*'s samples on an exploration switch (B: the
# working tree after e0130e1 with that change; A: e0130e1). Both binaries in one bundle
# (.device/bin/streampipe_a, streampipe_b), symmetric-grid sweeps in ABBAABBA order on one lease.
#   bash docs/evidence/run186/run.sh
# Criterion, written before the run (docs/evidence/run186/ab.py): over the symmetric sweeps, B has
# fewer points over 10 % than A in total and in at least 2 of the 4 pairs; B's mean choice is
# not lower than A's by more than 0.002 and B has no more configurations under 0.95 in total.
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run186 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
i=0
for v in a b b a a b b a; do
  i=$((i + 1))
  [ $SECONDS -gt 530 ] && break
  timeout $((590 - SECONDS)) .device/bin/streampipe_$v sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i$v.csv --summary=$R/summary-$i$v.md 2> $R/sweep-$i$v.log
  echo "sweep $i$v rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i$v.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run186.tgz run186 && rm -rf $R
