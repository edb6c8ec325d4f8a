# Run 134 (session 22): one block a frame as a plain launch (no cluster attribute) against the
# clusters, by bench/histogram_shapes (twice); histogram_bench sizes with each kernel (the
# non-streamed 176x144 doubt of run 131); the histogram GPU tests.
# `bash docs/evidence/run134/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run134 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/histogram_gpu_test --gtest_brief=1 > $R/histogram-gpu-test.txt 2>&1; echo "histogram_gpu_test rc=$? ${SECONDS}s"; tail -1 $R/histogram-gpu-test.txt
for k in 1 2; do timeout 120 .device/bin/histogram_shapes > $R/shapes-$k.txt 2>&1; echo "shapes $k rc=$? ${SECONDS}s"; done
cat $R/shapes-1.txt
for kern in shared shared-atomic shared shared-atomic; do
  timeout 60 .device/bin/histogram_bench sizes --kernel=$kern --cont-batches=300 >> $R/bench-$kern.txt 2>&1; echo "bench $kern rc=$? ${SECONDS}s"
done
grep -hE "^(==|176|352)" $R/bench-*.txt
tar -C /tmp -czf $OUT/run134.tgz run134
