# Run 84 (session 14): the review mends (573a72d: c0 and g from FitInSituWithIdle, the anchor's
# conditions). GPU tests; two calibrations; a full sweep with the first profile.
cd .device && . ./env.sh && cd .. && R=$OUT/run84 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for i in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-$i.toml > $R/calibrate-$i.txt 2>&1
  echo "calibrate $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$i.txt) us, $(grep '^  c0' $R/calibrate-$i.txt), $(grep -c 'note: g' $R/calibrate-$i.txt) g notes ${SECONDS}s"
done
timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-1.toml --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "sweep rc=$? ${SECONDS}s"
grep -E "calibrated median|device time|the measurement itself" $R/sweep.log
cd $OUT && tar czf run84.tgz run84 && rm -rf run84
