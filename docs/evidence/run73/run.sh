# Run 73 (session 12): calibrate records the host's issue time of every add-scalar batch and keeps
# out of the c fit the n the host set or stalled. GPU tests; calibrate twice on a quiet host, then
# under CPU contention (busy loops on every core: 16, then 48 of them), twice each; a quick sweep
# quiet and under 48 busy loops.
cd .device && . ./env.sh && cd .. && R=$OUT/run73 && mkdir -p $R && nvidia-smi > $R/gpu.txt
nproc > $R/nproc.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
cal() {  # cal NAME
  .device/bin/streampipe calibrate --output=$R/h100-$1.toml > $R/calibrate-$1.txt 2>&1
  echo "calibrate $1 rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$1.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$1.txt) us, sub-chunk $(awk '$1=="sub-chunk"{print $2}' $R/calibrate-$1.txt) us ${SECONDS}s"
  sed -n '/add-scalar sweep/,/fit:/p' $R/calibrate-$1.txt
}
hog() {  # hog N: N busy loops for at most 120 s
  for i in $(seq $1); do timeout 120 sh -c 'while :; do :; done' & done
}
cal quiet-1; cal quiet-2
hog 16; sleep 1; cal hog16-1; cal hog16-2; kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
hog 48; sleep 1; cal hog48-1; cal hog48-2; kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
timeout 150 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100-quiet-1.toml --output=$R/sweep-quiet.csv --summary=$R/summary-quiet.md 2> $R/sweep-quiet.log; echo "sweep quiet rc=$? ${SECONDS}s"
hog 48; sleep 1
timeout 150 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100-quiet-1.toml --output=$R/sweep-hog48.csv --summary=$R/summary-hog48.md 2> $R/sweep-hog48.log; echo "sweep hog48 rc=$? ${SECONDS}s"
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
for s in quiet hog48; do echo "== sweep $s"; grep -E "calibrated median|the measurement itself|adaptive" $R/sweep-$s.log | head -8; done
cd $OUT && tar czf run73.tgz run73 && rm -rf run73
