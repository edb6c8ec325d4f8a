# Run 220 (session 39): issues 4 and 5 on the final code (e063ac9's library: the learned level's
# check, batches one at a time only), which runs 214 and 218 measured on degraded leases only; the
# adaptive bench now labels each event (a drift the check declared reads `drift(level-check)`).
# Then one whole grid (bench/sweeps/paper.toml, both issue modes, adaptive runs traced), which the
# final code has not run (run 215's was 6731049's, on a busy lease). The bundle of this session's
# first commit, carried after `scripts/device-slim --keep=run220,run117`.
# Criteria, written before the run (the issues' goals, as the goals table counts them): stationary
# paired >= 0.98 at every intensity; two-phase >= 0.97 of the per-phase best and >= 5 % faster than
# the best fixed n; continuous 64 MiB >= 0.95 of the duplex bound; 704x576 continuous >= 0.98 of
# the copy bound. Each is reported met or not per run, beside the lease's own duplex. The whole
# grid has no criterion: its row is reported (rows.py) against the goals, as measured.
#   bash docs/evidence/run220/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run220 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for k in 1 2; do
  timeout 200 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all-$k.txt 2>&1
  echo "adaptive_bench all $k rc=$? ${SECONDS}s"
  grep -E "calibrated:|^(1|50|200|500|1000|3000) |per-phase best|faster|^adaptive" $R/adaptive-all-$k.txt
  timeout 60 .device/bin/histogram_bench sizes --kernel=shared --cont-batches=300 \
    > $R/histogram-sizes-$k.txt 2>&1
  echo "histogram_bench sizes $k rc=$? ${SECONDS}s"
  grep -E "^(176|352|704|1920)" $R/histogram-sizes-$k.txt
done
B=.device/bin/streampipe
P=docs/evidence/run117/h100.toml
timeout $((575 - SECONDS)) $B sweep --config=bench/sweeps/paper.toml --profile=$P \
  --output=$R/sweep-all1.csv --summary=$R/summary-all1.md \
  --adaptive-trace=$R/trace-all1.csv 2> $R/sweep-all1.log
echo "sweep all1 rc=$? ${SECONDS}s"
tail -5 $R/sweep-all1.log
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run220.tgz run220 && rm -rf $R
