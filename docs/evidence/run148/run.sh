# Run 148 (session 24, 10e75e9: carried visits after the review's mends): the adaptive,
# histogram and pipeline GPU tests, then a whole-grid pair alternating the binary of 21030bd
# (.device/bin/streampipe-base, run 146's bundle: b) with this one (a), run 117's profile.
# `bash docs/evidence/run148/run.sh [PAIR]` (PAIR names the files: 1, 2, ...; default 1; tests
# only with PAIR 1)
PAIR=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run148-$PAIR && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
if [ "$PAIR" = 1 ]; then
  for t in adaptive_gpu_test histogram_gpu_test pipeline_test; do
    timeout 150 .device/bin/$t --gtest_brief=1 > $R/$t.log 2>&1
    echo "$t rc=$? ${SECONDS}s $(grep -E '^\[  (PASSED|FAILED) ' $R/$t.log | tr '\n' ' ')" | tee -a $R/gpu-tests.txt
  done
fi
P=docs/evidence/run117/h100.toml
for s in b a; do
  bin=.device/bin/streampipe; [ $s = b ] && bin=.device/bin/streampipe-base
  timeout 220 $bin sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-${s}$PAIR.csv --summary=$R/summary-${s}$PAIR.md 2> $R/sweep-${s}$PAIR.log
  echo "sweep ${s}$PAIR ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-${s}$PAIR.log
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run148-$PAIR.tgz run148-$PAIR
