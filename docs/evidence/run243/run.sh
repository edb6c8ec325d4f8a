# Run 243 (session 44): the review's mends (9abf5d4, and the two-device test's launcher check)
# on one H100 (nvidia-h100-x1, the card of every run before run 242): every GPU suite, the
# pipeline against a hand-written loop (issue 3) twice, and one symmetric sweep with its adaptive
# runs traced (the current code's model is unchanged since session 43; this is one more lease).
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 5, core 260, resources 7, fault 3,
#     histogram 6, pipeline 40 (the two-device test skipped: one GPU), video 124;
#  2. the pipeline within 2 % of the hand loop at every point, in each repeat;
#  3. bench/trace_replay (CPU, afterwards) replays the sweep's trace to its own prediction within
#     0.1 % at every point, every configuration reproduced. Its goal figures are reported, not
#     judged (no prediction changed).
#   bash docs/evidence/run243/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run243 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
for k in 1 2; do
  scripts/gpu-evidence pipeline $R/pipeline-$k .device > /dev/null 2>&1
  echo "pipeline $k rc=$? ${SECONDS}s"
  grep -o "BM_Paired/[0-9]*/[0-9]*/.*ratio=[0-9.]*" $R/pipeline-$k/pipeline_bench.txt |
    sed -E 's|BM_Paired/([0-9]+)/([0-9]+)/.*ratio=([0-9.]+)|\1 \2 \3|' |
    awk '{d=$3-1; if(d<0)d=-d; if(d>w){w=d; at=$1" n="$2} c++} END{printf "  %d points, worst |pipe/hand - 1| %.2f %% (iters %s)\n", c, 100*w, at}'
done
if [ $SECONDS -lt 360 ]; then
  timeout 200 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=docs/evidence/run117/h100.toml --output=$R/sweep-1.csv --summary=$R/summary-1.md \
    --adaptive-trace=$R/trace-1.csv 2> $R/sweep-1.log
  echo "sweep 1 rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-1.log | cut -c1-120
fi
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run243.tgz run243 && rm -rf $R
