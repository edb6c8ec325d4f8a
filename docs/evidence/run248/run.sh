# Run 248 (session 44): the session's new GPU tests under compute-sanitizer (issue 7's tools),
# the bundle of run 247 (9997ed7's tree; the library as the final code's).
# Criterion, written before the run: memcheck (with --leak-check full), racecheck, initcheck and
# synccheck each report 0 errors / 0 hazards over the new pipeline tests (the two-device one
# skips on one GPU) and the two new continuous tests, and the tests pass under each tool.
#   bash docs/evidence/run248/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run248 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt
P='PipelineTest.DeviceMemoryAsAHostBufferIsRefused:PipelineTest.ABatchThatFailsWhileIssuedLeavesTheNextBatchsTimingRight:PipelineTest.MoveAssigningOverAPipelineWithABatchInFlightDeliversItsOutput:PipelineTest.EveryCallRunsOnThePipelinesDeviceAndLeavesTheCallersCurrent'
A='AdaptiveGpuTest.AFixedNRunsAShortBatchAtOneStreamPerItem:AdaptiveGpuTest.ASourceOrSinkThatThrowsStopsTheRunWithAnError'
for tool in "memcheck --leak-check full" racecheck initcheck synccheck; do
  for t in "pipeline_test|$P" "adaptive_gpu_test|$A"; do
    IFS='|' read -r bin filter <<<"$t"
    log=$R/san-${tool%% *}-$bin.log
    # --report-api-errors no: the tests provoke failing API calls on purpose (a device pointer's
    # attributes, a launcher's refusal); what is checked is the kernels' memory and leaks.
    timeout 200 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 \
      .device/bin/$bin --gtest_brief=1 "--gtest_filter=$filter" > $log 2>&1
    printf '%-28s %-18s rc=%d  %s | %s\n' "$tool" "$bin" $? \
      "$(grep -m1 -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards? displayed)' $log)" \
      "$(grep -m1 -E '^\[  (PASSED|FAILED)' $log)"
  done
done | tee $R/sanitizers.txt
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run248.tgz run248 && rm -rf $R
