# Run 184 (session 32; the library of 9f58ca1, session 28's controller; bench flags checked since
# 7304706): every GPU test; the bench tools' bad flags on the GPU machine; instance_spread's short
# pass as run 180 ran it (c712fee moved its CPU reference to once per intensity, not run on the GPU
# since); issue 4's `adaptive_bench all --batches=400` once; one whole-grid sweep (the current
# code's table of every model); then sweeps of the symmetric add-scalar grid as time allows.
#   bash docs/evidence/run184/run.sh     # with .device.txz carried; everything in $OUT/run184.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run184 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/logs > $R/gpu-tests.txt 2>&1
echo "tests rc=$? ${SECONDS}s"; tail -n 12 $R/gpu-tests.txt
. .device/env.sh 2>/dev/null || true
bash bench/bad_flags_test.sh --allow-missing .device/bin .device/bin/matmul > $R/bad-flags.txt 2>&1  # --allow-missing added after the run (the script skipped missing tools by default then)
echo "bad flags rc=$? ($(tail -n 1 $R/bad-flags.txt))"
gzip $R/logs/*.log; tar -C $R -czf $R/test-logs.tgz logs && rm -rf $R/logs
s0=$SECONDS
timeout 200 .device/bin/instance_spread --iters=1,500 --rounds=2 > $R/spread.csv 2> $R/spread.log
echo "instance_spread rc=$? in $((SECONDS - s0)) s"; tail -n 2 $R/spread.log
timeout 150 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all.txt 2>&1
echo "adaptive_bench all rc=$? ${SECONDS}s"
grep -E "^(1|50|200|500|1000|3000) |per-phase best|faster" $R/adaptive-all.txt
B=.device/bin/streampipe
P=docs/evidence/run117/h100.toml
timeout $((590 - SECONDS)) $B sweep --grid=all --issue=streams,graph --profile=$P \
  --output=$R/sweep-all.csv --summary=$R/summary-all.md 2> $R/sweep-all.log
echo "sweep all rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself" $R/sweep-all.log
for i in 1 2 3 4; do
  [ $SECONDS -gt 520 ] && break
  timeout $((590 - SECONDS)) $B sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run184.tgz run184 && rm -rf $R
