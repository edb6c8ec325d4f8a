# Run 137 (session 22): histogram_bench sizes with the final kernel (shared: one block a frame at
# 176x144, clusters above) against shared-atomic, three runs a side alternating: the
# non-streamed 176x144 doubt of runs 131 and 134.
# `bash docs/evidence/run137/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run137 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3; do
  for kern in shared shared-atomic; do
    timeout 60 .device/bin/histogram_bench sizes --kernel=$kern --cont-batches=300 > $R/bench-$kern-$k.txt 2>&1; echo "bench $kern $k rc=$? ${SECONDS}s"
    grep -E "^(176|352|704|1920)" $R/bench-$kern-$k.txt
  done
done
tar -C /tmp -czf $OUT/run137.tgz run137
