# Run 238 (session 42): the final code (the read-through's commit after a993a60; the carry off by
# default) on the H100: every GPU suite, then one symmetric sweep with its adaptive runs traced.
# Criterion, written before the run: every GPU suite passes (adaptive 8, cli_gpu 4, core 255,
# resources 7, fault 3, histogram 6, pipeline 36, video 124); the sweep's settings record
# carry-far-visits=false, and bench/trace_replay (CPU, afterwards) replays its trace to its own
# prediction within 0.1 % at every point, every configuration reproduced:
#   zcat docs/evidence/run238/sweep-1.csv.gz > /tmp/s.csv; zcat docs/evidence/run238/trace-1.csv.gz > /tmp/t.csv
#   build/release/bench/trace_replay /tmp/s.csv /tmp/t.csv docs/evidence/run117/h100.toml
#   bash docs/evidence/run238/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run238 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -28
timeout 200 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
  --profile=docs/evidence/run117/h100.toml --output=$R/sweep-1.csv --summary=$R/summary-1.md \
  --adaptive-trace=$R/trace-1.csv 2> $R/sweep-1.log
echo "sweep 1 rc=$? ${SECONDS}s"
grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-1.log | cut -c1-120
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run238.tgz run238 && rm -rf $R
