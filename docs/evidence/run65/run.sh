# Run 65: undecided neighbours resampled outside the budget, calibration in rounds (this code):
# calibrate, GPU tests, stationary adaptive_bench three times (paired column), two full sweeps.
cd .device && . ./env.sh && cd .. && R=$OUT/run65 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us, $(grep -o 'sweep: [0-9.]* GB/s' $R/calibrate.txt), left out: $(grep -c 'left out' $R/calibrate.txt) ${SECONDS}s"
timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2 3; do
  timeout 60 .device/bin/adaptive_bench stationary --batches=400 > $R/stationary-$k.txt 2>&1; echo "stationary $k rc=$? ${SECONDS}s"
  tail -n +5 $R/stationary-$k.txt | cut -c1-80
done
for k in a b; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$? ${SECONDS}s"
  grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
cd $OUT && tar czf run65.tgz run65 && rm -rf run65
