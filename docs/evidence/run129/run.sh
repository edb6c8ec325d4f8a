# Run 129 (session 21): the final code (963b183) over the whole grid: two full sweeps with run
# 117's profile and the quick sweep.
# `bash docs/evidence/run129/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run129 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
P=docs/evidence/run117/h100.toml
for k in 1 2; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-g$k.csv --summary=$R/summary-g$k.md 2> $R/sweep-g$k.log; echo "sweep g$k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-g$k.log
  echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep-g$k.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-g$k.log | wc -l)"
done
timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$P --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/quick.log
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run129.tgz run129
