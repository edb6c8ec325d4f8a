# Run 270 (session 48): the final code of the session on one H200 (no H100 kind is lent): after
# run 269, MedianMeasurement at the largest batch's size, histogram's staged output, its refused
# flags, the profile's required keys, the config messages' escaping, the batch validated before
# its plan.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10 (SeveralMeasuredBatchesPerDerivationInContinuousMode
#     among them, which failed in run 269), cli_gpu 6, core 269, resources 8, fault 4,
#     histogram 6, pipeline 44 with the two-device test skipped (one GPU), video 124;
#  2. the session's new GPU tests under compute-sanitizer memcheck (--leak-check full) and
#     synccheck: 0 errors, and they pass under each tool;
#  3. scripts/demo's GPU path (test/scripts/demo_test.sh as ctest runs it, on the GPU) exits 0;
#  4. adaptive_bench all --batches=100 and histogram_bench sizes exit 0 with their tables.
#   bash docs/evidence/run270/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run270 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
P='PipelineTest.AMovedFromPipelineSaysSoInsteadOfCrashing:PipelineTest.CreatingAPipelineLeavesAnotherThreadsCaptureWhole:PipelineTest.BadBatchesAreClearErrors'
Q='ResourcesTest.AWaitWithTheLargestTimeoutWaitsForTheWork:ResourcesTest.BuffersCountBytesAndMove'
for tool in "memcheck --leak-check full" synccheck; do
  for t in "pipeline_test|$P" "cuda_resources_test|$Q" "adaptive_gpu_test|AdaptiveGpuTest.SeveralMeasuredBatchesPerDerivationInContinuousMode"; do
    IFS='|' read -r bin filter <<<"$t"
    log=$R/san-${tool%% *}-$bin.log
    timeout 200 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 \
      .device/bin/$bin --gtest_brief=1 "--gtest_filter=$filter" > $log 2>&1
    printf '%-28s %-20s rc=%d  %s | %s\n' "$tool" "$bin" $? \
      "$(grep -m1 -oE 'ERROR SUMMARY: [0-9]+ errors?' $log)" \
      "$(grep -m1 -E '^\[  (PASSED|FAILED)' $log)"
  done
done | tee $R/sanitizers.txt
echo "2. sanitizers ${SECONDS}s"
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "3. demo rc=$? ${SECONDS}s"; tail -5 $R/demo.txt
timeout 120 .device/bin/adaptive_bench all --batches=100 > $R/adaptive-all.txt 2>&1
echo "4. adaptive_bench all rc=$? ${SECONDS}s"; grep -E '^== |^per-phase|^best single' $R/adaptive-all.txt
timeout 90 .device/bin/histogram_bench sizes --cont-batches=100 > $R/histogram-sizes.txt 2>&1
echo "   histogram_bench sizes rc=$? ${SECONDS}s"; grep -E '^== |^[0-9]+x[0-9]+' $R/histogram-sizes.txt | cut -c1-150
tar -C $OUT -czf $OUT/run270.tgz run270 && rm -rf $R
