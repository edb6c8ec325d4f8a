# Run 159 (session 27): the sweep's adaptive run on until its calibration is complete (a: the
# default, --adaptive-max-batches=0, i.e. up to 600 batches) against cut at 150 batches as
# before (b: --adaptive-max-batches=150), the same binary, whole-grid sweeps in the order given
# (ABBA across calls), run 117's profile; `tests` first runs every GPU test.
#   bash docs/evidence/run159/run.sh TAG ORDER [tests]   # e.g. 1 ab tests; 2 baab; 4 abba
# (Call 2 ran before the per-sweep names: its second a and b overwrote the first's files, kept
# here as a3 and b3; the first pair's figures are its printed output, README.md.)
TAG=${1:-1}; ORDER=${2:-ab}
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run159-$TAG && mkdir -p $R && nvidia-smi > $R/gpu.txt
if [ "$3" = tests ]; then
  .device/run-gpu-tests $R/logs > $R/gpu-tests.txt 2>&1
  echo "tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | tail -12
  gzip $R/logs/*.log; tar -C $R -czf $R/test-logs.tgz logs && rm -rf $R/logs
fi
. .device/env.sh
P=docs/evidence/run117/h100.toml
i=0
for s in $(echo $ORDER | grep -o .); do
  i=$((i+1)); [ ${#ORDER} -gt 2 ] && n=$TAG.$i || n=$TAG  # one name per sweep of the call
  m=0; [ $s = b ] && m=150
  timeout 280 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --adaptive-max-batches=$m --output=$R/sweep-${s}$n.csv --summary=$R/summary-${s}$n.md \
    2> $R/sweep-${s}$n.log
  echo "sweep ${s}$n (--adaptive-max-batches=$m) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-${s}$n.log
  grep -o "Kept runs.*" $R/sweep-${s}$n.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run159-$TAG.tgz run159-$TAG && rm -rf $R
