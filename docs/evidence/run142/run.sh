# Run 142 (session 23): two more whole-grid pairs for the kernel's halves (run 141's A/B again):
# b without the halves batch (--no-kernel-halves), a with it (the default), alternating b a b a;
# run 117's profile. Same binaries as run 141.
# `bash docs/evidence/run142/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run142 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
P=docs/evidence/run117/h100.toml
for k in 2 3; do
  for s in b a; do
    flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
    timeout 145 .device/bin/streampipe sweep --grid=all $flag --issue=streams,graph --profile=$P \
      --output=$R/sweep-$s$k.csv --summary=$R/summary-$s$k.md 2> $R/sweep-$s$k.log; echo "sweep $s$k ($flag) rc=$? ${SECONDS}s"
    grep -E "calibrated median|the measurement itself" $R/sweep-$s$k.log
  done
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run142.tgz run142
