# Run 234 (session 41): the final code (aa161e2: the cap mended, trace_replay's and the sweep's
# trace mended after reviews) on the GPU. Every GPU suite, then two symmetric sweeps with traces:
# the defaults, and --measure-batches=3 (a measurement of three batches: the trace's kernel half
# is then the reference's after the third, which trace_replay must find).
# Criterion, written before the run: every GPU suite passes (adaptive 8, cli_gpu 4, core 251,
# resources 7, fault 3, histogram 6, pipeline 36, video 124; cli_gpu's sweep test now refuses a
# resumed trace of other columns); and bench/trace_replay (CPU, afterwards) replays both sweeps
# with no fitted kernel half, no configuration left out, and the sweep's own prediction to
# 0.1 % at every point (`bash docs/evidence/run234/replay.sh`).
#   bash docs/evidence/run234/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run234 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -28
P=docs/evidence/run117/h100.toml
for v in 1 3; do
  timeout $((580 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --measure-batches=$v --profile=$P --output=$R/sweep-m$v.csv --summary=$R/summary-m$v.md \
    --adaptive-trace=$R/trace-m$v.csv 2> $R/sweep-m$v.log
  echo "sweep m$v rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-m$v.log | cut -c1-120
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run234.tgz run234 && rm -rf $R
