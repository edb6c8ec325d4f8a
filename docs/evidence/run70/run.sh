# Run 70 (session 11): the in-situ fit's gap correction (g timed in a burst gives way to the
# sweep's per-stream cost; the misfit printed is the model's as written): GPU tests, calibrate
# five times, one full sweep with the last profile.
cd .device && . ./env.sh && cd .. && R=$OUT/run70 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2 3 4 5; do
  .device/bin/streampipe calibrate --output=$R/h100-$k.toml > $R/calibrate-$k.txt 2>&1
  echo "calibrate $k rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$k.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$k.txt) us, g $(grep "^  g " $R/calibrate-$k.txt | cut -c12-), $(grep -c 'note: g h2d' $R/calibrate-$k.txt) gap notes, left out: $(grep -c 'left out' $R/calibrate-$k.txt) ${SECONDS}s"
done
timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-5.toml --output=$R/sweep-a.csv --summary=$R/summary-a.md 2> $R/sweep-a.log; echo "a rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself" $R/sweep-a.log
cd $OUT && tar czf run70.tgz run70 && rm -rf run70
