# Run 253 (session 45): racecheck over session 44's new GPU tests, which run 248 left unfinished
# (each binary stopped at its 200 s bound). The two binaries run side by side here, each bounded
# at 540 s, on one H100 (nvidia-h100-x1); the bundle of the final library.
# Criterion, written before the run: racecheck reports 0 hazards over the new pipeline tests
# (the two-device one skips on one GPU) and the two new continuous tests, and the tests pass
# under it. A run that does not finish within its bound is reported as such, not as a pass.
#   bash docs/evidence/run253/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run253 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt && cat $R/gpu.txt
P='PipelineTest.DeviceMemoryAsAHostBufferIsRefused:PipelineTest.ABatchThatFailsWhileIssuedLeavesTheNextBatchsTimingRight:PipelineTest.MoveAssigningOverAPipelineWithABatchInFlightDeliversItsOutput:PipelineTest.EveryCallRunsOnThePipelinesDeviceAndLeavesTheCallersCurrent'
A='AdaptiveGpuTest.AFixedNRunsAShortBatchAtOneStreamPerItem:AdaptiveGpuTest.ASourceOrSinkThatThrowsStopsTheRunWithAnError'
for t in "pipeline_test|$P" "adaptive_gpu_test|$A"; do
  IFS='|' read -r bin filter <<<"$t"
  ( timeout 540 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 \
      .device/bin/$bin --gtest_brief=1 "--gtest_filter=$filter" > $R/san-racecheck-$bin.log 2>&1
    printf '%-18s rc=%d %ss  %s | %s\n' "$bin" $? $SECONDS \
      "$(grep -m1 -oE 'RACECHECK SUMMARY: [0-9]+ hazards? displayed.*' $R/san-racecheck-$bin.log)" \
      "$(grep -m1 -E '^\[  (PASSED|FAILED)' $R/san-racecheck-$bin.log)" ) &
done
wait
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run253.tgz run253 && rm -rf $R
