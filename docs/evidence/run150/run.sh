# Run 150 (session 25: a kept re-derivation whose neighbours were compared visits the calibration
# probe first): the adaptive, histogram and pipeline GPU tests, then whole-grid sweeps of this
# binary (a) and of a844b5a's (b, .device/bin/streampipe-base: session 24's final code) in the
# order given, run 117's profile. The order alternates across calls (ABBA): session 24 found the
# second sweep of a pair favoured.
#   bash docs/evidence/run150/run.sh TAG ORDER [tests]   # e.g. 1 ba tests; 2 ab; 3 ba ...
TAG=${1:-1}; ORDER=${2:-ba}
cd .device && . ./env.sh && cd .. && R=/tmp/run150-$TAG && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
if [ "$3" = tests ]; then
  for t in adaptive_gpu_test histogram_gpu_test pipeline_test; do
    timeout 150 .device/bin/$t --gtest_brief=1 > $R/$t.log 2>&1
    echo "$t rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED) ' $R/$t.log | tr '\n' ' ')" | tee -a $R/gpu-tests.txt
  done
fi
P=docs/evidence/run117/h100.toml
for s in $(echo $ORDER | grep -o .); do
  bin=.device/bin/streampipe; [ $s = b ] && bin=.device/bin/streampipe-base
  timeout 230 $bin sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-${s}$TAG.csv --summary=$R/summary-${s}$TAG.md 2> $R/sweep-${s}$TAG.log
  echo "sweep ${s}$TAG ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-${s}$TAG.log
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run150-$TAG.tgz run150-$TAG
