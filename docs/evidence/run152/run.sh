# Run 152 (session 26): the adaptive pipeline's measurement as the median of three non-streamed
# batches (adaptive.measure_batches = 3, sweep --measure-batches=3: side a) against one (the
# default until then: side b), the same binary, whole-grid sweeps in the order given (ABBA across
# calls: session 24 found the second sweep of a pair favoured), run 117's profile.
#   bash docs/evidence/run152/run.sh TAG ORDER [tests]   # e.g. 1 ab; 2 ba
TAG=${1:-1}; ORDER=${2:-ab}
cd .device && . ./env.sh && cd .. && R=/tmp/run152-$TAG && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
if [ "$3" = tests ]; then
  for t in adaptive_gpu_test histogram_gpu_test pipeline_test; do
    timeout 150 .device/bin/$t --gtest_brief=1 > $R/$t.log 2>&1
    echo "$t rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED) ' $R/$t.log | tr '\n' ' ')" | tee -a $R/gpu-tests.txt
  done
fi
P=docs/evidence/run117/h100.toml
for s in $(echo $ORDER | grep -o .); do
  k=1; [ $s = a ] && k=3
  timeout 230 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --measure-batches=$k --output=$R/sweep-${s}$TAG.csv --summary=$R/summary-${s}$TAG.md \
    2> $R/sweep-${s}$TAG.log
  echo "sweep ${s}$TAG (--measure-batches=$k) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-${s}$TAG.log
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run152-$TAG.tgz run152-$TAG
