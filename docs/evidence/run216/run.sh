# Run 216 (session 38): an A/B of the learned level's check on one lease. Runs 214-215 were busy
# leases and three of their symmetric sweep-modes chose at 0.967-0.978 of the best on average
# (no sweep since run 175 had been below 0.98); whether the check has a part in it is not known.
# `.device/bin/streampipe-old` is the program of ce3ba0b (the sweep's --config, the controller
# before the check), built in a worktree and put into the bundle before packing; `.device/bin/
# streampipe` is the current code's. Symmetric sweeps from bench/sweeps/symmetric.toml, the old
# and the new program in turn while time lasts, each with --adaptive-trace (the new program's
# traces show each check's batch: a kMeasure with no halves batch before it).
# Decision rule, written before the run: over the pairs run, if the new program's mean choice
# ratio (mean over its sweep-modes) is lower than the old's by more than 0.005, or its worst
# ratios lower on median over the pairs by more than 0.02, the check is turned off by default
# (left as an option); otherwise it stays on.
#   bash docs/evidence/run216/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run216 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
i=0
while [ $SECONDS -lt 430 ]; do
  i=$((i + 1))
  for v in old new; do
    b=.device/bin/streampipe; [ $v = old ] && b=.device/bin/streampipe-old
    timeout $((580 - SECONDS)) $b sweep --config=bench/sweeps/symmetric.toml --profile=$P \
      --output=$R/sweep-$v$i.csv --summary=$R/summary-$v$i.md \
      --adaptive-trace=$R/trace-$v$i.csv 2> $R/sweep-$v$i.log
    echo "sweep $v$i rc=$? ${SECONDS}s"
  done
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run216.tgz run216 && rm -rf $R
