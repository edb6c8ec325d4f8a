# Run 120 (session 20, after the final read-through: the slope bound computed only where used):
# every GPU test (logs kept) and the quick sweep with run 117's profile.
# `bash docs/evidence/run120/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run120 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=docs/evidence/run117/h100.toml --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median\|the measurement itself" $R/quick.log; grep -A3 "^| adaptive" $R/quick.md | head -4
rm -f $R/gpu-tests/*.xml; gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run120.tgz run120
