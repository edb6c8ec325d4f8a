# Run 58: the stationary adaptive_bench A/B of run 56 again (this code; 53bb625's adaptive_bench_old).
cd .device && . ./env.sh && cd .. && R=$OUT/run58 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3; do
  for v in old new; do
    b=.device/bin/adaptive_bench; [ $v = old ] && b=.device/bin/adaptive_bench_old
    timeout 40 $b stationary --batches=400 > $R/stationary-$v-$k.txt 2>&1; echo "$v $k rc=$? ${SECONDS}s"
  done
done
cd $OUT && tar czf run58.tgz run58 && rm -rf run58
