# Run 274 (session 49): the start-event test rewritten after run 273 showed session 48's
# suspicion true (with 2 batches in flight, breadth-first n = 64: 8 of 3840 spans started up to
# 38 us before their batch's start event), on whatever GPU `device` lends.
# Criterion, written before the run:
#  1. TheStartEventBoundsABatchAloneAndNeverItsPeriod passes 3 times in a row: one batch at a
#     time, 0 spans before the start event at n = 16, 32, 64 in both orders; with 2 in flight,
#     no batch with such spans has a start event after the end of the batch before;
#  2. the whole pipeline_test passes (45, the two-device test skipped);
#  3. compute-sanitizer memcheck, API errors not reported (the stale-error test makes one on
#     purpose), shows 0 errors on the two new tests.
#   bash docs/evidence/run274/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run274 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/bin/pipeline_test --gtest_filter='*TheStartEventBounds*' --gtest_repeat=3 > $R/start-event.txt 2>&1
echo "1. rc=$? ${SECONDS}s"; grep -E "start event \]|Failure|PASSED|FAILED" $R/start-event.txt | head -60
.device/bin/pipeline_test --gtest_brief=1 > $R/pipeline_test.txt 2>&1
echo "2. rc=$? ${SECONDS}s"; tail -4 $R/pipeline_test.txt
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
$SAN --tool memcheck --report-api-errors no --leak-check full --error-exitcode 9 .device/bin/pipeline_test \
  --gtest_filter='*AnErrorTheCallerLeft*:*TheStartEventBounds*' > $R/memcheck.txt 2>&1
echo "3. memcheck rc=$? ${SECONDS}s"; grep -E "ERROR SUMMARY|PASSED|FAILED|start event \]" $R/memcheck.txt | head -20
tar -C $OUT -czf $OUT/run274.tgz run274 && rm -rf $R
