# Run 76 (session 13): the components measured in the rounds (two per round) instead of back to
# back before them; calibrate; two full sweeps, every point also held until issued (held_ms).
cd .device && . ./env.sh && cd .. && R=$OUT/run76 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us ${SECONDS}s"
for k in a b; do
  timeout 250 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k rc=$? ${SECONDS}s"
  grep -E "calibrated median|device time|the measurement itself" $R/sweep-$k.log
  sed -n '/^Prediction accuracy/,$p' $R/sweep-$k.log
done
cd $OUT && tar czf run76.tgz run76 && rm -rf run76
