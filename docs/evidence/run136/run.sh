# Run 136 (session 22): the final code (c3b4e81 and its docs) on a new lease: every GPU test,
# the histogram grid with each kernel (three sweeps a side, alternating), and two full sweeps
# (the whole grid, run 117's profile).
# `bash docs/evidence/run136/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run136 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
P=docs/evidence/run117/h100.toml
for k in 1 2 3; do
  for s in a b; do
    kern=shared; [ $s = b ] && kern=shared-atomic
    timeout 60 .device/bin/streampipe sweep --grid=histogram --histogram-kernel=$kern --issue=streams,graph --profile=$P \
      --output=$R/hist-$s$k.csv --summary=$R/hist-summary-$s$k.md 2> $R/hist-$s$k.log; echo "histogram sweep $s$k ($kern) rc=$? ${SECONDS}s"
    grep -E "calibrated median|measurement itself" $R/hist-$s$k.log | sed 's/; single.*//'
  done
done
for k in 1 2; do
  timeout 220 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-i$k.csv --summary=$R/summary-i$k.md 2> $R/sweep-i$k.log; echo "sweep i$k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-i$k.log
  echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep-i$k.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-i$k.log | wc -l)"
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run136.tgz run136
