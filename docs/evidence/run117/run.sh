# Run 117 (session 20, the final code: the inline path on by default): every GPU test (logs kept),
# `streampipe calibrate` (its profile, with the pipeline's inline ladders combined), three full
# sweeps with that profile (c1-c3: the code as a user runs it), and the quick sweep (smoke).
# `bash docs/evidence/run117/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run117 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 90 .device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1; echo "calibrate rc=$? ${SECONDS}s"
grep -A1 "^  inline" $R/calibrate.txt | head -4; grep inline $R/h100.toml
for k in 1 2 3; do
  timeout 150 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml \
    --output=$R/sweep-c$k.csv --summary=$R/summary-c$k.md 2> $R/sweep-c$k.log; echo "sweep c$k rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-c$k.log
done
timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100.toml --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/quick.log
rm -f $R/gpu-tests/*.xml; gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run117.tgz run117
