# Run 187 (session 33): A/B of the lower calibration probe (B: the working tree with it; A:
# e6d036e). Both binaries in one bundle (.device/bin/streampipe_a, streampipe_b), symmetric-grid
# sweeps in ABBAABBA order on one lease.
#   bash docs/evidence/run187/run.sh
# Criterion, written before the run (docs/evidence/run187/ab.py prints each part). B passes if
#   1. B has fewer configurations whose adaptive choice is under 0.95 of the best, in total;
#   2. B's mean choice over all configurations is not lower than A's;
#   3. at intensity 3000 (where n* sits at 64-128 and the probe goes below: 6 configurations
#      per sweep, both issue modes), B's mean choice is higher than A's;
#   4. guard: B's points over 10 % are at most 1.15x A's in total (run 186's lease moved the
#      count by that much between equal halves).
# It is kept if 1-4 hold. Replay (controller_replay on the 53 symmetric sweeps of runs 175-186,
# 20 seeds): mean choice 0.9956 -> 0.9972, sweep-modes with a run under 0.95 65 -> 8 of 106,
# points over 10 % unchanged (61.3 per seed) without slowed batches.
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run187 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
i=0
for v in a b b a a b b a; do
  i=$((i + 1))
  [ $SECONDS -gt 520 ] && break
  timeout $((585 - SECONDS)) .device/bin/streampipe_$v sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i$v.csv --summary=$R/summary-$i$v.md 2> $R/sweep-$i$v.log
  echo "sweep $i$v rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i$v.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run187.tgz run187 && rm -rf $R
