# Run 69 (session 11): the sweep's repeatability column (halves_ratio: each point's rounds after
# the adaptive run over those before) and summary table; GPU tests, calibrate twice, two full
# sweeps with the second profile.
cd .device && . ./env.sh && cd .. && R=$OUT/run69 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-$k.toml > $R/calibrate-$k.txt 2>&1
  echo "calibrate $k rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$k.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$k.txt) us, $(grep -o 'sweep: [0-9.]* GB/s' $R/calibrate-$k.txt), left out: $(grep -c 'left out' $R/calibrate-$k.txt) ${SECONDS}s"
done
for k in a b; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-2.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
cd $OUT && tar czf run69.tgz run69 && rm -rf run69
