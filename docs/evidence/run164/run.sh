# Run 164 (session 29's final code, 85a9e30, as run 163; the same bundle): issues 4 and 5's
# benchmarks on the current controller six times more, alternating, for their spread on one
# lease: `adaptive_bench all --batches=400` and `histogram_bench sizes --kernel=shared
# --cont-batches=300`.
#   bash docs/evidence/run164/run.sh     # with .device.txz carried; everything in $OUT/run164.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh 2>/dev/null || true
R=$OUT/run164 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for k in 1 2 3 4 5 6; do
  if [ $SECONDS -lt 480 ]; then
    timeout 100 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all-$k.txt 2>&1
    echo "adaptive_bench all $k rc=$? ${SECONDS}s"
    grep -E "^(1|50|200|500|1000|3000) |per-phase best|faster" $R/adaptive-all-$k.txt
    timeout 40 .device/bin/histogram_bench sizes --kernel=shared --cont-batches=300 \
      > $R/histogram-sizes-$k.txt 2>&1
    echo "histogram_bench sizes $k rc=$? ${SECONDS}s"
    grep -E "^704" $R/histogram-sizes-$k.txt
  fi
done
tar -C $OUT -czf $OUT/run164.tgz run164 && rm -rf $R
