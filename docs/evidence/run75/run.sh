# Run 75 (session 13): batches held until issued (StreamPipeline::RunHeld: a gate kernel on the
# origin stream, released once the host has enqueued the batch) time the device alone. GPU tests
# (with the held-batch tests); calibrate; quick sweeps quiet and under 48 busy loops; one full
# sweep, each point also measured held (held_ms).
cd .device && . ./env.sh && cd .. && R=$OUT/run75 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h -E "Held|Gate" $R/gpu-tests/*.log | grep -E "OK|FAILED" | sort -u
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us ${SECONDS}s"
hog() {  # hog N: N busy loops for at most 100 s
  for i in $(seq $1); do timeout 100 sh -c 'while :; do :; done' & done
}
sweep() {  # sweep NAME GRID TIMEOUT
  timeout $3 .device/bin/streampipe sweep --grid=$2 --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$1.csv --summary=$R/summary-$1.md 2> $R/sweep-$1.log; echo "sweep $1 rc=$? ${SECONDS}s"
  grep -E "calibrated median|device time|the measurement itself" $R/sweep-$1.log
  sed -n '/^Device time/,$p' $R/sweep-$1.log
}
sweep quick quick 60
hog 48; sleep 1; sweep quick-hog48 quick 60; kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
sweep all all 320
cd $OUT && tar czf run75.tgz run75 && rm -rf run75
