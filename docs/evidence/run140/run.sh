# Run 140 (session 23): the kernel's halves. Every GPU test; the histogram grid with the
# measurement's halves batch (a, the default) and without it (b, --no-kernel-halves: the model
# of session 22), three sweeps a side alternating; one full sweep (run 117's profile).
# `bash docs/evidence/run140/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run140 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
P=docs/evidence/run117/h100.toml
for k in 1 2 3; do
  for s in a b; do
    flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
    timeout 70 .device/bin/streampipe sweep --grid=histogram $flag --issue=streams,graph --profile=$P \
      --output=$R/hist-$s$k.csv --summary=$R/hist-summary-$s$k.md 2> $R/hist-$s$k.log; echo "histogram sweep $s$k ($flag) rc=$? ${SECONDS}s"
    grep -E "calibrated median|measurement itself" $R/hist-$s$k.log | sed 's/; single.*//'
  done
done
timeout 240 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
  --output=$R/sweep-j1.csv --summary=$R/summary-j1.md 2> $R/sweep-j1.log; echo "sweep j1 rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself" $R/sweep-j1.log
echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep-j1.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-j1.log | wc -l)"
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run140.tgz run140
