# Run 132 (session 22): the histogram kernel's device and host time by merge and cluster shape
# (bench/histogram_shapes), twice; then the histogram GPU tests (the default shapes against the
# CPU reference).
# `bash docs/evidence/run132/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run132 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2; do timeout 120 .device/bin/histogram_shapes > $R/shapes-$k.txt 2>&1; echo "shapes $k rc=$? ${SECONDS}s"; done
cat $R/shapes-1.txt
.device/bin/histogram_gpu_test --gtest_brief=1 > $R/histogram-gpu-test.txt 2>&1; echo "histogram_gpu_test rc=$? ${SECONDS}s"; tail -3 $R/histogram-gpu-test.txt
tar -C /tmp -czf $OUT/run132.tgz run132
