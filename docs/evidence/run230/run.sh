# Run 230 (session 40): a confirmatory A/B of a neighbour's second visit, with a rule of its own.
# Run 229 (16 symmetric sweeps) found B (--second-visit-batches=40) better than A (the default, 0)
# on every measure, but short of its rule (points over 10 %: 14 against 17 where at most 11.9 was
# asked), so the default stayed 0. This run adds what run 229 did not cover: the whole grid
# (bench/sweeps/paper.toml) A then B, issue 4's benches (adaptive_bench all --batches=400) A then
# B, then symmetric sweeps in AB order while time lasts. Fresh data only: run 229 is not pooled.
# Bundle: 3aa149b's library, with adaptive_bench --second-visit-batches (this commit's parent).
# Rule, written before the run:
#   primary (prediction), over the call's sweeps (the whole grids, and symmetric sweeps where both
#     A and B of a pair completed): B's points over 10 % (calibrated, both modes) at most A's, and
#     B's sweep-modes within 10 % at every point at least A's;
#   no harm (choice): B's choice mean over its sweep-modes at least A's - 0.002, and its worst
#     choice >= 0.95 in at least as many sweep-modes as A's less one;
#   no harm (issue 4): B's stationary paired median at least A's - 0.01, its two-phase ratio to the
#     per-phase best at least A's - 0.02, its continuous 64 MiB ratio at least A's - 0.03 (the
#     option does nothing in steady state; this is the lease's spread).
# All met: the default becomes 40 (library and sweep), resting on runs 229 and 230 together, and
# the notes say that run 229's own rule was not met. Otherwise the default stays 0.
#   bash docs/evidence/run230/run.sh   (then python3 docs/evidence/run230/criteria.py)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run230 && mkdir -p $R/A $R/B && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
for side in A B; do
  flag=""; [ $side = B ] && flag="--second-visit-batches=40"
  timeout $((540 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/paper.toml $flag \
    --profile=$P --output=$R/$side/sweep-all.csv --summary=$R/$side/summary-all.md \
    --adaptive-trace=$R/$side/trace-all.csv 2> $R/$side/sweep-all.log
  echo "sweep all $side rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/$side/sweep-all.log | cut -c1-120
done
for side in A B; do
  flag=""; [ $side = B ] && flag="--second-visit-batches=40"
  [ $SECONDS -lt 430 ] || break
  timeout 100 .device/bin/adaptive_bench all --batches=400 $flag > $R/$side/adaptive-all-1.txt 2>&1
  echo "adaptive_bench all $side rc=$? ${SECONDS}s"
done
i=0
while [ $SECONDS -lt 440 ]; do
  i=$((i + 1))
  for side in A B; do
    flag=""; [ $side = B ] && flag="--second-visit-batches=40"
    timeout $((580 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
      $flag --profile=$P --output=$R/$side/sweep-$i.csv --summary=$R/$side/summary-$i.md \
      --adaptive-trace=$R/$side/trace-$i.csv 2> $R/$side/sweep-$i.log
    echo "sweep $i $side rc=$? ${SECONDS}s"
  done
done
gzip $R/*/*.csv $R/*/*.log
tar -C $OUT -czf $OUT/run230.tgz run230 && rm -rf $R
