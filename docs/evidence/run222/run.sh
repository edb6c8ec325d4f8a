# Run 222 (session 39): why AdaptiveGpuTest.ContinuousStreamingDeliversEveryBatchInOrderExactly
# found 7 samples where it asks for 8 in 2 of 5 runs of run 221 (and once in run 214), now that
# the test prints each run's shape (samples, host gaps, measured batches, n changes). The bundle
# of adaptive_gpu_test alone at 215d25b (`scripts/device-bundle --pack --only=adaptive_gpu_test`).
# No criterion: a diagnosis. 40 repetitions of the test; the shapes tell whether the runs short
# of samples had host gaps (the host fell behind: each restarts the 24 batches before periods
# are samples) or explorations, or neither.
#   bash docs/evidence/run222/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run222 && mkdir -p $R && nvidia-smi > $R/gpu.txt
timeout 300 .device/bin/adaptive_gpu_test --gtest_filter='*ContinuousStreamingDeliversEveryBatchInOrderExactly*' \
  --gtest_repeat=40 --gtest_brief=1 > $R/continuous.log 2>&1
echo "rc=$? ${SECONDS}s"
grep -c '^run 0' $R/continuous.log; grep -c 'Failure' $R/continuous.log
grep '^run' $R/continuous.log | awk '{print $1, $2, $3, $5}' | sort | uniq -c | sort -rn | head -20
tar -C $OUT -czf $OUT/run222.tgz run222 && rm -rf $R
