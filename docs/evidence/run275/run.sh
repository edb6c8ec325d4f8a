# Run 275 (session 49): session 48's two GPU tests that were never run on the code before their
# mend, on whatever GPU `device` lends.
# .device-old/ holds pipeline_test, fault_test and fault_child built from this tree with the
# mends taken back: Create's stream touch and Calibrate's Quiesce wait with
# cudaDeviceSynchronize again, and Submit no longer re-checks Stopped() after a Drain.
# Criterion, written before the run:
#  1. on that old code, CreatingAPipelineLeavesAnotherThreadsCaptureWhole fails (the other
#     thread's capture is broken) and ABatchAfterADrainThatTimedOutIsRefused fails (the batch
#     is enqueued on a stopped pipeline);
#  2. on this session's code both pass, and so does every GPU suite: adaptive 10, cli_gpu 6,
#     core 271, resources 8, fault 4, histogram 6, pipeline 45 and the two-device test
#     skipped, video 124.
#   bash docs/evidence/run275/run.sh   (on the GPU machine, .device.txz and .device-old carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run275 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device-old/pipeline_test --gtest_filter='*CreatingAPipelineLeavesAnotherThreadsCaptureWhole*' > $R/old-capture.txt 2>&1
echo "1a. old capture rc=$? (a failure expected) ${SECONDS}s"; grep -E "Failure|Which is|Expected|FAILED \]|OK \]" -A2 $R/old-capture.txt | head -20
timeout 300 .device-old/fault_test --gtest_filter='*ABatchAfterADrainThatTimedOutIsRefused*' > $R/old-drain.txt 2>&1
echo "1b. old drain rc=$? (a failure expected) ${SECONDS}s"; grep -E "Failure|Which is|Expected|FAILED \]|OK \]" -A2 $R/old-drain.txt | head -20
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "2. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
tar -C $OUT -czf $OUT/run275.tgz run275 && rm -rf $R
