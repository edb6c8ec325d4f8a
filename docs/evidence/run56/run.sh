# Run 56: GPU tests of the sequential switch test; the sweep A/B on one lease (this code and
# 53bb625, streampipe_old, alternating, one calibration); the stationary adaptive_bench A/B
# (this code and 53bb625's adaptive_bench_old).
cd .device && . ./env.sh && cd .. && R=$OUT/run56 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
c=$(awk '$1=="c"{print $2}' $R/calibrate.txt); d=$(grep -o 'sweep: [0-9.]*' $R/calibrate.txt | awk '{print $2}')
echo "c=$c duplex=$d"
for k in new-a old-a new-b old-b; do
  b=.device/bin/streampipe; case $k in old*) b=.device/bin/streampipe_old;; esac
  /usr/bin/time -f "%e s" $b sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$? ${SECONDS}s"; grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
for k in 1 2; do
  for v in old new; do
    b=.device/bin/adaptive_bench; [ $v = old ] && b=.device/bin/adaptive_bench_old
    timeout 40 $b stationary --batches=400 > $R/stationary-$v-$k.txt 2>&1; echo "$v $k rc=$? ${SECONDS}s"
  done
done
cd $OUT && tar czf run56.tgz run56 && rm -rf run56
