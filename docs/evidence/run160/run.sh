# Run 160 (session 28, 5d60a1b: the review's mends to the controller's calibration bookkeeping,
# targets a batch's items would clamp neither visited nor owed): every GPU test, the CLI paths of
# run 157, then two whole-grid sweeps with the default (the adaptive run on until calibrated, up
# to 600 batches) on run 117's profile, as run 159's a sweeps.
#   bash docs/evidence/run160/run.sh     # with .device.txz carried; everything in $OUT/run160.tgz
set -u
SECONDS=0
tar -xJf .device.txz && echo "unpacked in ${SECONDS}s: $(du -sh .device | cut -f1)"
R=$OUT/run160 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/logs > $R/gpu-tests.txt 2>&1
echo "tests rc=$? ${SECONDS}s"; tail -n 12 $R/gpu-tests.txt
. .device/env.sh 2>/dev/null || true
B=.device/bin/streampipe
{
  $B devices; echo "devices rc=$?"
  $B histogram --synthetic=section44 --frames=512 --verify --output=/dev/null; echo "verify rc=$?"
  env --default-signal=PIPE $B histogram --synthetic=scene-cuts --frames=20000 --width=64 \
    --height=64 | head -c 10 > /dev/null; echo "closed pipe rc=${PIPESTATUS[0]}"
} > $R/cli.txt 2>&1
cat $R/cli.txt
gzip $R/logs/*.log; tar -C $R -czf $R/test-logs.tgz logs && rm -rf $R/logs
P=docs/evidence/run117/h100.toml
for i in 1 2; do
  timeout 280 $B sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-a$i.csv --summary=$R/summary-a$i.md 2> $R/sweep-a$i.log
  echo "sweep a$i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-a$i.log
  grep -o "Kept runs.*" $R/sweep-a$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run160.tgz run160 && rm -rf $R
