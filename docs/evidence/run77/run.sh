# Run 77 (session 13): calibrate times its add-scalar sweep held (c the device's own). GPU tests;
# calibrate held and unheld, quiet and under 48 busy loops; a full sweep with the first held
# profile, every point also held (held_ms).
cd .device && . ./env.sh && cd .. && R=$OUT/run77 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h -E "Held|Gate|Calibration" $R/gpu-tests/*.log | grep -E "OK|FAILED" | sort -u
cal() {  # cal NAME [FLAGS]
  .device/bin/streampipe calibrate --output=$R/h100-$1.toml $2 > $R/calibrate-$1.txt 2>&1
  echo "calibrate $1 rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$1.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$1.txt) us ${SECONDS}s"
  sed -n '/add-scalar sweep/,/fit:/p' $R/calibrate-$1.txt
}
hog() {  # hog N: N busy loops for at most 60 s
  for i in $(seq $1); do timeout 60 sh -c 'while :; do :; done' & done
}
cal held-1; cal unheld-1 --no-held-sweep; cal held-2; cal unheld-2 --no-held-sweep
hog 48; sleep 1; cal hog-held-1; cal hog-unheld-1 --no-held-sweep; cal hog-held-2; cal hog-unheld-2 --no-held-sweep
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; sleep 1
timeout 250 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-held-1.toml --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "sweep rc=$? ${SECONDS}s"
grep -E "calibrated median|device time|the measurement itself" $R/sweep.log
sed -n '/^Prediction accuracy/,$p' $R/sweep.log
cd $OUT && tar czf run77.tgz run77 && rm -rf run77
