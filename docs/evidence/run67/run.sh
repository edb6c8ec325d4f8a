# Run 67: is the sweep's "best n" of small batches the pipeline's? The matmul and histogram
# grids (streams and graphs) measured with the default rounds (5 visits of 3 timed batches per n,
# each after an untimed one) and in long runs (--per-visit=30: one visit of 30 per n, the regime
# the adaptive pipeline's chosen n runs in), alternating, twice each; one profile for all.
cd .device && . ./env.sh && cd .. && R=$OUT/run67 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us ${SECONDS}s"
for k in 1 2; do
  for v in rounds long; do
    f=""; [ $v = long ] && f="--per-visit=30 --repetitions=30"
    timeout 200 .device/bin/streampipe sweep --grid=matmul,histogram --issue=streams,graph $f --profile=$R/h100.toml --output=$R/sweep-$v-$k.csv 2> $R/sweep-$v-$k.log; echo "$v $k rc=$? ${SECONDS}s"
  done
done
cd $OUT && tar czf run67.tgz run67 && rm -rf run67
