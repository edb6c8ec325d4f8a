# Run 240 (session 43): the same code as run 239 (the controller-key table; every default as
# session 42's), on the lease run 239 found quiet: symmetric sweeps while time lasts, then one
# whole grid, each tracing its adaptive runs. No change is under test; the run adds sweeps of
# the current default code, to count on how many sweep-modes each goal is met.
# Written before the run:
#   - reported as they come: each sweep-mode's calibrated median and max, points over 10 %,
#     choice mean and worst, and the measurement's own movement (rounds after / before);
#   - every trace replays to its sweep's prediction within 0.1 % (bench/trace_replay, CPU);
#   - the carry (adaptive.carry_far_visits, off by default) scored on these batches and run
#     239's by trace_replay both ways, with run 237's criterion: points over 10 % with it <=
#     without, symmetric sweep-modes within 10 % with it >= without, no sweep-mode's median
#     higher with it by over 0.05 points. Met or not, the default stays off this session (it
#     failed that criterion on run 237's busy lease); the result is one more lease's count.
#   bash docs/evidence/run240/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run240 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
i=0
while [ $SECONDS -lt 300 ]; do
  i=$((i + 1))
  timeout 120 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml --profile=$P \
    --output=$R/sweep-$i.csv --summary=$R/summary-$i.md --adaptive-trace=$R/trace-$i.csv \
    2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-$i.log | cut -c1-120
done
left=$((560 - SECONDS)); [ $left -gt 220 ] && left=220
if [ $left -gt 100 ]; then
  timeout $left .device/bin/streampipe sweep --config=bench/sweeps/paper.toml --profile=$P \
    --output=$R/sweep-all.csv --summary=$R/summary-all.md --adaptive-trace=$R/trace-all.csv \
    2> $R/sweep-all.log
  echo "sweep all rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-all.log | cut -c1-120
fi
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run240.tgz run240 && rm -rf $R
