# Run 145 (session 23, 13d59d3: the calibration test calibrates again on a fit over the
# tolerance): the pipeline GPU tests, then a fourth whole-grid pair for the kernel's halves
# (b4 without, a4 with), run 117's profile.
# `bash docs/evidence/run145/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run145 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 120 .device/bin/pipeline_test --gtest_brief=1 > $R/pipeline_test.log 2>&1; echo "pipeline_test rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED) ' $R/pipeline_test.log | tr '\n' ' ')" | tee $R/gpu-tests.txt
grep -h "calibration [0-9]: misfit" $R/pipeline_test.log
P=docs/evidence/run117/h100.toml
for s in b a; do
  flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
  timeout 200 .device/bin/streampipe sweep --grid=all $flag --issue=streams,graph --profile=$P \
    --output=$R/sweep-${s}4.csv --summary=$R/summary-${s}4.md 2> $R/sweep-${s}4.log; echo "sweep ${s}4 ($flag) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-${s}4.log
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run145.tgz run145
