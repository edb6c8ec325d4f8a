# Run 179 (session 31's code: the library of 9f58ca1, session 28's, with bench/instance_spread
# added): the full bundle again now that the tracked tree is small enough to travel with it.
# Every GPU test, the CLI paths of run 163, issues 4 and 5's benchmarks (`adaptive_bench all
# --batches=400`, `histogram_bench sizes --kernel=shared --cont-batches=300`) up to four times,
# then sweeps of the symmetric add-scalar grid (issue 6, and how quiet the lease is) as time allows.
#   bash docs/evidence/run179/run.sh     # with .device.txz carried; everything in $OUT/run179.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run179 && mkdir -p $R && nvidia-smi > $R/gpu.txt
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
tail -n 3 $R/cli.txt
gzip $R/logs/*.log; tar -C $R -czf $R/test-logs.tgz logs && rm -rf $R/logs
for k in 1 2 3 4; do
  [ $k -gt 1 ] && [ $SECONDS -gt 230 ] && break
  timeout 200 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all-$k.txt 2>&1
  echo "adaptive_bench all $k rc=$? ${SECONDS}s"
  grep -E "^(1|50|200|500|1000|3000) |per-phase best|faster" $R/adaptive-all-$k.txt
  timeout 60 .device/bin/histogram_bench sizes --kernel=shared --cont-batches=300 \
    > $R/histogram-sizes-$k.txt 2>&1
  echo "histogram_bench sizes $k rc=$? ${SECONDS}s"
  grep -E "^(176|352|704|1920)" $R/histogram-sizes-$k.txt
done
P=docs/evidence/run117/h100.toml
for i in 1 2 3 4 5 6; do
  [ $SECONDS -gt 480 ] && break
  timeout $((575 - SECONDS)) $B sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run179.tgz run179 && rm -rf $R
