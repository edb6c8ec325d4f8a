# Run 83 (session 14): c0 in the model and calibration (d5f9798) and the non-streamed
# measurement anchoring the calibrated correction at n = 1. GPU tests; one calibration; two
# full sweeps with its profile (the second for the measurement's repeatability between them).
cd .device && . ./env.sh && cd .. && R=$OUT/run83 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us, $(grep '^  c0' $R/calibrate.txt) ${SECONDS}s"
for s in a b; do
  timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$s.csv --summary=$R/summary-$s.md 2> $R/sweep-$s.log; echo "sweep $s rc=$? ${SECONDS}s"
  grep -E "calibrated median|device time|the measurement itself" $R/sweep-$s.log
done
cd $OUT && tar czf run83.tgz run83 && rm -rf run83
