# Run 144 (session 23, df63b62: the review's mends): the pipeline, adaptive and histogram GPU
# tests (the failing-measurement test now fails the warm-up, the halves and the measured batch),
# then one histogram pair (a: halves, b: --no-kernel-halves).
# `bash docs/evidence/run144/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run144 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for t in pipeline_test adaptive_gpu_test histogram_gpu_test; do
  timeout 100 .device/bin/$t --gtest_brief=1 > $R/$t.log 2>&1; echo "$t rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED) ' $R/$t.log | tr '\n' ' ')" | tee -a $R/gpu-tests.txt
done
timeout 30 .device/bin/pipeline_test --gtest_filter='*AMeasurementBatchThatFailsIsMeasuredAgain*:*TheKernelsHalves*' > $R/new-tests.log 2>&1; echo "new tests rc=$?"; grep -E "^\[ +(OK|FAILED|RUN) " $R/new-tests.log
P=docs/evidence/run117/h100.toml
for s in a b; do
  flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
  timeout 70 .device/bin/streampipe sweep --grid=histogram $flag --issue=streams,graph --profile=$P \
    --output=$R/hist-${s}7.csv --summary=$R/hist-summary-${s}7.md 2> $R/hist-${s}7.log; echo "histogram sweep ${s}7 ($flag) rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run144.tgz run144
