# Run 113 (session 19, after the final review: ChunkOf in core, the ladder measured only where asked): every GPU test (logs kept), and
# `streampipe calibrate --quick` twice (the change-point fit of the inline ladder), and the quick sweep
# (both modes) as the smoke benchmark of the final code.
# `bash docs/evidence/run113/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run113 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2; do
  timeout 60 .device/bin/streampipe calibrate --quick --output=$R/quick-$k.toml > $R/calibrate-$k.txt 2>&1; echo "calibrate $k rc=$? ${SECONDS}s"
  grep -A1 "^  inline" $R/calibrate-$k.txt
done
timeout 150 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/sweep.log
gzip $R/sweep.csv; rm -f $R/gpu-tests/*.xml; tar -C /tmp -czf $OUT/run113.tgz run113
