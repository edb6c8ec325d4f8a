# Run 273 (session 49): this session's code, on whatever GPU `device` lends (no H100 kind was
# lent at the start of the session: nvidia-h200, -x2).
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 271, resources 8, fault 4,
#     histogram 6, pipeline 45 and the two-device test skipped, video 124; among them the two
#     new tests, AnErrorTheCallerLeftIsNotTheNextBatchs and
#     TheStartEventPrecedesEveryStreamsWorkPastEightStreams (whose printed counts say whether
#     session 48's suspicion holds: a pass is 0 early spans at n = 16, 32, 64);
#  2. the same AnErrorTheCallerLeftIsNotTheNextBatchs, built from this tree with Submit's
#     stale-error clear removed (.device-old/pipeline_test), fails: the test can fail;
#  3. the new tests show 0 errors under compute-sanitizer memcheck;
#  4. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0.
#   bash docs/evidence/run273/run.sh   (on the GPU machine, .device.txz and .device-old carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run273 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
grep "start event \]" $R/tests/pipeline_test.log
.device-old/pipeline_test --gtest_filter='*AnErrorTheCallerLeft*' > $R/old-clear.txt 2>&1
echo "2. old code rc=$? (a failure expected) ${SECONDS}s"; grep -E "Failure|INTERNAL|error|OK \]|FAILED \]" $R/old-clear.txt | head -8
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
$SAN --tool memcheck --leak-check full --error-exitcode 9 .device/bin/pipeline_test \
  --gtest_filter='*AnErrorTheCallerLeft*:*TheStartEventPrecedes*' > $R/memcheck.txt 2>&1
echo "3. memcheck rc=$? ${SECONDS}s"; grep -E "ERROR SUMMARY|PASSED|FAILED" $R/memcheck.txt | head -5
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "4. demo rc=$? ${SECONDS}s"; tail -2 $R/demo.txt
tar -C $OUT -czf $OUT/run273.tgz run273 && rm -rf $R
