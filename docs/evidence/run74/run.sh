# Run 74 (session 12): the GPU tests again after run 73's adaptive failure (two drifts before the
# change where one is allowed), now with the pipeline test's issue-time checks and the four-n
# rule; the adaptive test three more times on its own; calibrate twice.
cd .device && . ./env.sh && cd .. && R=$OUT/run74 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for i in 1 2 3; do
  .device/bin/adaptive_gpu_test --gtest_brief=1 > $R/adaptive-$i.log 2>&1
  echo "adaptive $i rc=$?: $(grep -E '^\[  (PASSED|FAILED)' $R/adaptive-$i.log | tr '\n' ' ') $(grep -A1 Failure $R/adaptive-$i.log | tr '\n' ' ') ${SECONDS}s"
done
for i in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-$i.toml > $R/calibrate-$i.txt 2>&1
  echo "calibrate $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$i.txt) us; $(grep -c 'left out' $R/calibrate-$i.txt) left out ${SECONDS}s"
  sed -n '/add-scalar sweep/,/fit:/p' $R/calibrate-$i.txt
done
cd $OUT && tar czf run74.tgz run74 && rm -rf run74
