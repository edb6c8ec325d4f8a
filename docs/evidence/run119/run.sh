# Run 119 (session 20, the final code with the burst-visit rule): every GPU test (logs kept), one
# full sweep with run 117's profile, and the quick sweep (smoke).
# `bash docs/evidence/run119/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run119 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=docs/evidence/run117/h100.toml \
  --output=$R/sweep-d1.csv --summary=$R/summary-d1.md 2> $R/sweep-d1.log; echo "sweep d1 rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself" $R/sweep-d1.log
timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=docs/evidence/run117/h100.toml --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/quick.log
rm -f $R/gpu-tests/*.xml; gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run119.tgz run119
