# Run 181 (session 31): does the calibrated prediction come closer to the rounds when the
# adaptive run goes on longer? With --adaptive-batches=600 (A) a neighbour of n* is revisited
# once (exploration.revisit_batches = 500) and its time rests on four samples from two moments;
# with the default 150 (B) on the two of one visit. Symmetric grid, both issue modes, one binary
# (the current code), pairs in ABBAAB order on one lease.
# Criterion, written before the run: A has fewer calibrated points over 10 % than B in at least
# two of three pairs and in total, with no higher median error.
#   bash docs/evidence/run181/run.sh     # with .device.txz carried; everything in $OUT/run181.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run181 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
i=0
for k in a b b a a b; do
  i=$((i + 1))
  [ $SECONDS -gt 470 ] && break
  extra=""; [ $k = a ] && extra=--adaptive-batches=600
  timeout $((590 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P $extra --output=$R/sweep-$i$k.csv --summary=$R/summary-$i$k.md 2> $R/sweep-$i$k.log
  echo "sweep $i$k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i$k.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run181.tgz run181 && rm -rf $R
