# Run 163 (session 29's final code, 85a9e30: the controller of 9f58ca1, session 28's): every GPU
# test, the CLI paths of run 160, then issues 4 and 5's benchmarks on the current controller
# (last measured on session 17's and session 22's): `adaptive_bench all --batches=400`
# (stationary, two-phase, continuous) and `histogram_bench sizes --kernel=shared
# --cont-batches=300` (704x576 continuous against the copy bound), each twice where the call's
# time allows.
#   bash docs/evidence/run163/run.sh     # with .device.txz carried; everything in $OUT/run163.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run163 && mkdir -p $R && nvidia-smi > $R/gpu.txt
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
for k in 1 2; do
  if [ $k = 1 ] || [ $SECONDS -lt 330 ]; then
    timeout 200 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all-$k.txt 2>&1
    echo "adaptive_bench all $k rc=$? ${SECONDS}s"
    grep -E "^(1|50|200|500|1000|3000) |per-phase best|faster" $R/adaptive-all-$k.txt
  fi
  if [ $k = 1 ] || [ $SECONDS -lt 500 ]; then
    timeout 60 .device/bin/histogram_bench sizes --kernel=shared --cont-batches=300 \
      > $R/histogram-sizes-$k.txt 2>&1
    echo "histogram_bench sizes $k rc=$? ${SECONDS}s"
    grep -E "^(176|352|704|1920)" $R/histogram-sizes-$k.txt
  fi
done
tar -C $OUT -czf $OUT/run163.tgz run163 && rm -rf $R
