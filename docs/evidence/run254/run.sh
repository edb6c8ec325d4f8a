# Run 254 (session 45): run 253's pipeline_test under racecheck ended with exit status 9 and
# printed no result. Here each of the three new pipeline tests that run on one GPU runs alone
# under racecheck, side by side, with full gtest output, each bounded at 420 s; and each alone
# without a tool, as the control. One H100 (nvidia-h100-x1), run 253's bundle.
# Criterion, written before the run: none judged; this finds which test fails under racecheck,
# and with what message, and whether racecheck reports a hazard in any of them.
#   bash docs/evidence/run254/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run254 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt && cat $R/gpu.txt
for t in DeviceMemoryAsAHostBufferIsRefused ABatchThatFailsWhileIssuedLeavesTheNextBatchsTimingRight \
         MoveAssigningOverAPipelineWithABatchInFlightDeliversItsOutput; do
  .device/bin/pipeline_test --gtest_filter=PipelineTest.$t > $R/plain-$t.log 2>&1
  echo "plain $t rc=$? $(grep -m1 -E '^\[  (PASSED|FAILED)' $R/plain-$t.log)"
done
for t in DeviceMemoryAsAHostBufferIsRefused ABatchThatFailsWhileIssuedLeavesTheNextBatchsTimingRight \
         MoveAssigningOverAPipelineWithABatchInFlightDeliversItsOutput; do
  ( timeout 420 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 \
      .device/bin/pipeline_test --gtest_filter=PipelineTest.$t > $R/san-racecheck-$t.log 2>&1
    printf '%-62s rc=%d %ss  %s | %s\n' "$t" $? $SECONDS \
      "$(grep -m1 -oE 'RACECHECK SUMMARY: [0-9]+ hazards? displayed.*' $R/san-racecheck-$t.log)" \
      "$(grep -m1 -E '^\[  (PASSED|FAILED)' $R/san-racecheck-$t.log)" ) &
done
wait
grep -h -B2 -A12 'Failure' $R/san-racecheck-*.log | head -60
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run254.tgz run254 && rm -rf $R
