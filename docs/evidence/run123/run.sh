# Run 123 (session 21, the final code after the review's mends, 0564702): every GPU test, two
# full sweeps with run 117's profile, the quick sweep, four two-phase runs (issue 4).
# `bash docs/evidence/run123/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run123 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
P=docs/evidence/run117/h100.toml
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
for k in 1 2; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-e$k.csv --summary=$R/summary-e$k.md 2> $R/sweep-e$k.log; echo "sweep e$k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-e$k.log
  echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep-e$k.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-e$k.log | wc -l)"
done
timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$P --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/quick.log
for k in 1 2 3 4; do
  timeout 60 .device/bin/adaptive_bench two-phase > $R/two-phase-$k.txt 2>&1; echo "two-phase $k rc=$? ${SECONDS}s"; grep -E "per-phase best|best single" $R/two-phase-$k.txt
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run123.tgz run123
