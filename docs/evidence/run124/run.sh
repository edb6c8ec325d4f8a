# Run 124 (session 21): run 123's lease was the busiest (the measurement itself over 10 % at
# 51-94 points per sweep-mode) and its two-phase runs poor. On the next lease: the calibration
# test that failed in run 123, three times, then two-phase alternating, a = adaptive_bench (the
# final code, 0564702) and b = adaptive_bench-b (96499de's controller), eight pairs.
# `bash docs/evidence/run124/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run124 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3; do
  timeout 60 .device/bin/pipeline_test --gtest_filter='*CalibrationFitsTheAddScalarSweepOnThisCard*' > $R/calibration-test-$k.txt 2>&1; echo "calibration test $k rc=$? ${SECONDS}s"
done
for k in 1 2 3 4 5 6 7 8; do
  for s in a b; do
    bin=.device/bin/adaptive_bench; [ $s = b ] && bin=.device/bin/adaptive_bench-b
    timeout 60 $bin two-phase > $R/two-phase-$s$k.txt 2>&1; echo "two-phase $s$k rc=$? ${SECONDS}s $(grep -o 'per-phase best = [0-9.]*' $R/two-phase-$s$k.txt) $(grep -o 'adaptive is [-0-9.]* % faster' $R/two-phase-$s$k.txt)"
  done
done
tar -C /tmp -czf $OUT/run124.tgz run124
