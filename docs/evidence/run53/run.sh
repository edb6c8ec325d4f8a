# Run 53: GPU tests of the confirming-visit change, then the stationary adaptive_bench A/B:
# the code before session 8 (8baab02, adaptive_bench_old) and this code, alternating on one lease.
cd .device && . ./env.sh && cd .. && R=$OUT/run53 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 330 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2 3; do
  for v in old new; do
    b=.device/bin/adaptive_bench; [ $v = old ] && b=.device/bin/adaptive_bench_old
    timeout 60 $b stationary --batches=400 > $R/stationary-$v-$k.txt 2>&1; echo "$v $k rc=$? ${SECONDS}s"
  done
done
cd $OUT && tar czf run53.tgz run53 && rm -rf run53
