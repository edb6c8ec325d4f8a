# Run 241 (session 43): the final code (the review's mends, 9e3b13c, and the carry's help, 3b49355;
# later commits docs) on the H100: every GPU suite, then one symmetric sweep with its adaptive
# runs traced.
# Criterion, written before the run: every GPU suite passes (adaptive 8, cli_gpu 4, core 260,
# resources 7, fault 3, histogram 6, pipeline 36, video 124); the sweep's rows record the
# controller keys as run 238's, and bench/trace_replay (CPU, afterwards) replays its trace to its
# own prediction within 0.1 % at every point, every configuration reproduced:
#   bash docs/evidence/run241/criteria.sh
#   bash docs/evidence/run241/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run241 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -28
timeout 200 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
  --profile=docs/evidence/run117/h100.toml --output=$R/sweep-1.csv --summary=$R/summary-1.md \
  --adaptive-trace=$R/trace-1.csv 2> $R/sweep-1.log
echo "sweep 1 rc=$? ${SECONDS}s"
grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-1.log | cut -c1-120
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run241.tgz run241 && rm -rf $R
