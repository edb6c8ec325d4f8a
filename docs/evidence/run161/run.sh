# Run 161 (session 28): exploration.recheck_slower, a visit slower than predicted by more than
# 10 % made once more in the derivation (a: the default, 0.10) against never (b:
# --recheck-slower=0), the same binary, whole-grid sweeps in the order given (ABBA across
# calls), run 117's profile, the adaptive run on until calibrated (the default); `tests` first
# runs every GPU test.
#   bash docs/evidence/run161/run.sh TAG ORDER [tests]   # e.g. 1 abba tests; 2 baab
# (da07a25's bundle: the option was reverted after this run)
TAG=${1:-1}; ORDER=${2:-ab}
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run161-$TAG && mkdir -p $R && nvidia-smi > $R/gpu.txt
if [ "$3" = tests ]; then
  .device/run-gpu-tests $R/logs > $R/gpu-tests.txt 2>&1
  echo "tests rc=$? ${SECONDS}s"; tail -n 12 $R/gpu-tests.txt
  gzip $R/logs/*.log; tar -C $R -czf $R/test-logs.tgz logs && rm -rf $R/logs
fi
. .device/env.sh
P=docs/evidence/run117/h100.toml
i=0
for s in $(echo $ORDER | grep -o .); do
  i=$((i+1)); n=$TAG.$i
  r=0.10; [ $s = b ] && r=0
  timeout 280 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --recheck-slower=$r --output=$R/sweep-${s}$n.csv --summary=$R/summary-${s}$n.md \
    2> $R/sweep-${s}$n.log
  echo "sweep ${s}$n (--recheck-slower=$r) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-${s}$n.log
  grep -o "Kept runs.*" $R/sweep-${s}$n.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run161-$TAG.tgz run161-$TAG && rm -rf $R
