# Run 85 (session 14): the same code as run 84 (573a72d), a second lease: its repeatability.
# One calibration; a full sweep with its profile (no GPU tests: run 84 ran them on this code).
cd .device && . ./env.sh && cd .. && R=$OUT/run85 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for i in 1; do
  .device/bin/streampipe calibrate --output=$R/h100-$i.toml > $R/calibrate-$i.txt 2>&1
  echo "calibrate $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$i.txt) us, $(grep '^  c0' $R/calibrate-$i.txt), $(grep -c 'note: g' $R/calibrate-$i.txt) g notes ${SECONDS}s"
done
timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-1.toml --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "sweep rc=$? ${SECONDS}s"
grep -E "calibrated median|device time|the measurement itself" $R/sweep.log
cd $OUT && tar czf run85.tgz run85 && rm -rf run85
