# Run 245 (session 44): the mends after a second review of the pipeline's change (the device
# entered after the cheap checks, and not for a drained result; a failed Create's resources freed
# on its device; a failed device switch leaves no error behind; a fixed n of RunContinuous outside
# the pool refused up front; the post-failure waits stop once one timed out) and the two-device
# test extended (pinned buffers, so graph mode issues graphs; the device after Submit, Collect,
# RunContinuous and the destructor; the source's device), on a machine of two GPUs, then the
# same bundle's suites on one H100 in run 246.
# Criterion, written before the run: every GPU suite passes: adaptive 10, cli_gpu 5, core 260,
# resources 7, fault 3, histogram 6, pipeline 40 (the two-device test run, not skipped), video 124.
#   bash docs/evidence/run245/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/${RUN:-run245} && mkdir -p $R && nvidia-smi -L > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
grep -o '<testcase name="EveryCallRuns[^>]*>' $R/tests/pipeline_test.xml | grep -o 'status="[a-z]*" result="[a-z]*"'
grep -c "<skipped" $R/tests/pipeline_test.xml
if [ "${RUN:-run245}" = run246 ]; then
  scripts/gpu-evidence pipeline $R/pipeline-1 .device > /dev/null 2>&1
  echo "pipeline rc=$? ${SECONDS}s"
  grep -o "BM_Paired/[0-9]*/[0-9]*/.*ratio=[0-9.]*" $R/pipeline-1/pipeline_bench.txt |
    sed -E 's|BM_Paired/([0-9]+)/([0-9]+)/.*ratio=([0-9.]+)|\1 \2 \3|' |
    awk '{d=$3-1; if(d<0)d=-d; if(d>w){w=d; at=$1" n="$2} c++} END{printf "  %d points, worst |pipe/hand - 1| %.2f %% (iters %s)\n", c, 100*w, at}'
fi
tar -C $OUT -czf $OUT/${RUN:-run245}.tgz ${RUN:-run245} && rm -rf $R
