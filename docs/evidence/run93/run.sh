# Run 93 (session 15): the final code (the per-n criterion of the adaptive-run check, after run 92):
# a calibration and two full sweeps with its profile, the adaptive-run check on (the default).
cd .device && . ./env.sh && cd .. && R=$OUT/run93 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1; echo "calibrate rc=$? $(grep -o "largest misfit [0-9.]* %" $R/calibrate.txt)"
for k in 1 2; do
  timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself|Adaptive runs" $R/sweep-$k.log
done
cd $OUT && tar czf run93.tgz run93 && rm -rf run93
