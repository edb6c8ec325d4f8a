# Run 193 (session 34; written after run 192 was read, before any run 193 data): the anchor
# check again, on the next lease. Run 192's lease had no transient slow anchor (of 448 kept
# runs' anchors, the 4 over 1.1x the rounds at n = 1 were 0.05 ms batches whose event-timed
# non-streamed measurement runs slower than a plain batch, and the check read them so too): the
# check moved 593 of 3576 predictions by at most 5.6 % and no point across 10 %, so it could not
# show what it is for. Its criterion's part 2 (no sweep-mode's max larger at all) failed on
# differences under 0.05 percentage points, moves of a few tenths of a percent where the two
# anchors differ by noise; here the guard allows 0.5 points. Criterion (pair.py), over every
# sweep-mode of this run:
#   1. fewer points over 10 % with the check than with the first anchor alone, in total;
#   2. in no sweep-mode a max error more than 0.5 percentage points larger with the check.
# Met: adaptive.check_anchor goes on by default (a config key). Failed: it stays off.
# Whole-grid sweeps first (run 191's slow anchors were in them), then symmetric ones.
#   bash docs/evidence/run193/run.sh
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run193 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
for i in 1 2 3; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --check-anchor --output=$R/sweep-all$i.csv --summary=$R/summary-all$i.md 2> $R/sweep-all$i.log
  echo "sweep all$i rc=$? ${SECONDS}s"
done
i=0
while [ $SECONDS -lt 480 ]; do
  i=$((i + 1))
  timeout $((585 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --check-anchor --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run193.tgz run193 && rm -rf $R
