# Run 258 (session 46): the issue-6 goals on a second card, one H200 (`nvidia-h200`), with
# session 46's code and this card's own profile (run 257's first calibration, h200-1.toml):
# the paper's whole grid once, then symmetric sweeps while time is left, every adaptive run
# traced.
# Criterion, written before the run:
#  1. every sweep exits 0, every row records the controller keys as run 238's did, and each
#     trace replays to its own sweep's prediction within 0.1 % at every point (criteria.sh,
#     afterwards on the CPU);
#  2. the calibrated median error is at most 3 % and the adaptive choice's mean at least 0.98
#     of the best in every sweep-mode (both met on every H100 sweep since run 239);
#     the maximum error and the worst choice are reported per sweep-mode, not judged.
#   bash docs/evidence/run258/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run258 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run257/h200-1.toml
timeout 260 .device/bin/streampipe sweep --config=bench/sweeps/paper.toml --profile=$P \
  --output=$R/sweep-all.csv --summary=$R/summary-all.md --adaptive-trace=$R/trace-all.csv \
  2> $R/sweep-all.log
echo "sweep all rc=$? ${SECONDS}s"
grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-all.log | cut -c1-120
for i in 1 2 3 4 5 6 7 8; do
  if [ $SECONDS -lt 470 ]; then
    timeout 110 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml --profile=$P \
      --output=$R/sweep-$i.csv --summary=$R/summary-$i.md --adaptive-trace=$R/trace-$i.csv \
      2> $R/sweep-$i.log
    echo "sweep $i rc=$? ${SECONDS}s"
    grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-$i.log | cut -c1-120
  fi
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run258.tgz run258 && rm -rf $R
