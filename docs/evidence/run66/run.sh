# Run 66: the final code of session 10 (58d7ddc, after the review mends) against the code before
# (streampipe_old = 726ebc1): calibration alternating four times each; GPU tests; two full sweeps
# with the last profile of this code.
cd .device && . ./env.sh && cd .. && R=$OUT/run66 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3 4; do
  for v in old new; do
    b=.device/bin/streampipe; [ $v = old ] && b=.device/bin/streampipe_old
    $b calibrate --output=$R/h100-$v-$k.toml > $R/calibrate-$v-$k.txt 2>&1
    echo "$v $k: $(grep -o "largest misfit [0-9.]* %" $R/calibrate-$v-$k.txt) c $(awk '$1=="c"{print $2}' $R/calibrate-$v-$k.txt) us, $(grep -o 'sweep: [0-9.]* GB/s' $R/calibrate-$v-$k.txt), g $(grep "^  g " $R/calibrate-$v-$k.txt | cut -c12-), left out: $(grep -c "left out" $R/calibrate-$v-$k.txt) ${SECONDS}s"
  done
done
timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in a b; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-new-4.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$? ${SECONDS}s"
  grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
cd $OUT && tar czf run66.tgz run66 && rm -rf run66
