# Run 190 (for the next session; written by session 33 after runs 187-189 were read, before any
# run 190 data): the lower calibration probe again (run187/lower-probe.patch), judged on the
# choice it is for. Both binaries in one bundle: streampipe_a from the current code, streampipe_b
# from the same tree with the patch applied (`git apply docs/evidence/run187/lower-probe.patch`
# in a worktree, `cmake --build --preset release --target streampipe_app`, copy
# build/release/apps/streampipe in as .device/bin/streampipe_b, strip it, then
# `tar -cJf .device.txz .device`). Eight symmetric sweeps in ABBAABBA order on one lease.
#   bash docs/evidence/run190/run.sh
# Criterion (docs/evidence/run190/ab.py prints each part). B is kept if, over the eight sweeps,
#   1. B has fewer configurations whose adaptive choice is under 0.95 of the best, in total;
#   2. B's mean choice over all configurations is higher than A's;
#   3. guard: B's points over 10 % are at most 1.15x A's in total (run 187's guard, unchanged).
# Why these: runs 187-188 failed a four-part criterion on a part each (187: points over 10 %
# 1.21x; 188: intensity 3000's mean choice 0.0004 lower), while parts 1-2 held in both; run 189
# then showed the failure the patch is for on the current code (breadth-first at intensity 3000
# left at n = 128, 0.912-0.942 of the best in 3 of 14 sweep-modes), and controller_replay favours
# the patch on runs 175-186 and on run 189 (run187/replay53.txt, run189/replay-sums.txt).
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run190 && mkdir -p $R && nvidia-smi > $R/gpu.txt
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
tar -C $OUT -czf $OUT/run190.tgz run190 && rm -rf $R
