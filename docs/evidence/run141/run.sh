# Run 141 (session 23): the kernel's halves on the whole grid, paired: a full sweep without the
# halves batch (b, --no-kernel-halves: session 22's model) and one with it (a, the default),
# then one more histogram pair; run 117's profile. The pipeline and adaptive GPU tests first.
# `bash docs/evidence/run141/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run141 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for t in pipeline_test adaptive_gpu_test; do
  timeout 100 .device/bin/$t --gtest_brief=1 > $R/$t.log 2>&1; echo "$t rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED) ' $R/$t.log | tr '\n' ' ')"
done
P=docs/evidence/run117/h100.toml
for s in b a; do
  flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
  timeout 240 .device/bin/streampipe sweep --grid=all $flag --issue=streams,graph --profile=$P \
    --output=$R/sweep-$s.csv --summary=$R/summary-$s.md 2> $R/sweep-$s.log; echo "sweep $s ($flag) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$s.log
done
for s in a b; do
  flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
  timeout 70 .device/bin/streampipe sweep --grid=histogram $flag --issue=streams,graph --profile=$P \
    --output=$R/hist-${s}4.csv --summary=$R/hist-summary-${s}4.md 2> $R/hist-${s}4.log; echo "histogram sweep ${s}4 ($flag) rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run141.tgz run141
