# Run 228 (session 39): the adaptive suite on 4949dde (the continuous test asks a sample of
# every gap-free stretch of 48 batches where the host fell behind more than once). The bundle of
# adaptive_gpu_test alone. Criterion, written before the run: the suite passes in 4 of 4 runs.
#   bash docs/evidence/run228/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run228 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for i in 1 2 3 4; do
  .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/adaptive-$i.log 2>&1
  echo "adaptive $i rc=$? ${SECONDS}s: $(grep -E '^\[  (PASSED|FAILED)' $R/adaptive-$i.log | tr '\n' ' ')"
  grep -A14 "Failure" $R/adaptive-$i.log | head -28
  grep "^run [01]:" $R/adaptive-$i.log | cut -c1-60
done
tar -C $OUT -czf $OUT/run228.tgz run228 && rm -rf $R
