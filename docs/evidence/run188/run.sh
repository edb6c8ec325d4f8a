# Run 188 (session 33): the lower calibration probe (B, the working tree after f1af50b) on the GPU:
# every GPU test, one whole-grid sweep, then four more symmetric sweeps in ABBA order (a
# replication of run 187, judged by the same criterion, docs/evidence/run187/ab.py). Written before
# run 187's results were read.
#   bash docs/evidence/run188/run.sh
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run188 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; tail -3 $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
timeout 200 .device/bin/streampipe_b sweep --grid=all --issue=streams,graph --profile=$P --output=$R/sweep-all.csv \
  --summary=$R/summary-all.md 2> $R/sweep-all.log
echo "sweep all rc=$? ${SECONDS}s"; grep -E "calibrated median|the measurement itself" $R/sweep-all.log
i=0
for v in a b b a; do
  i=$((i + 1))
  [ $SECONDS -gt 520 ] && break
  timeout $((585 - SECONDS)) .device/bin/streampipe_$v sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i$v.csv --summary=$R/summary-$i$v.md 2> $R/sweep-$i$v.log
  echo "sweep $i$v rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i$v.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run188.tgz run188 && rm -rf $R
