# Run 244 (session 44): the two-device test again, now with the check that the launcher runs
# with the pipeline's device current (added after run 242, where the library before the mends
# failed the test only on Create leaving its device current: the batches themselves ran right).
# Criterion, written before the run: on a machine of two GPUs the test passes on the current
# library and fails on the library before the mends (.device/old/, HEAD ddc8800's pipeline.cpp)
# at the launcher's device as well as at Create's.
#   bash docs/evidence/run244/run.sh   (on a two-GPU machine, .device.txz carried)
set -u
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run244 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt
f=PipelineTest.EveryCallRunsOnThePipelinesDeviceAndLeavesTheCallersCurrent
.device/bin/pipeline_test --gtest_filter=$f > $R/new.log 2>&1; echo "current library rc=$?"
.device/old/pipeline_test --gtest_filter=$f > $R/old.log 2>&1; echo "library before the mends rc=$?"
grep -E "Failure|Create left|launcher ran|OK \]|PASSED|FAILED" $R/new.log $R/old.log | head -20
tar -C $OUT -czf $OUT/run244.tgz run244 && rm -rf $R
