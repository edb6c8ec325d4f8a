# Run 218 (session 38): issues 4 and 5 on the final code (5e176f9: the learned level's check, one
# batch at a time only), which run 214 measured on a degraded lease only. Run 217's bundle, carried
# after `scripts/device-slim --keep=run218,run117`: `adaptive_bench all --batches=400` and
# `histogram_bench sizes --kernel=shared --cont-batches=300`, twice each as time allows, as runs
# 163-164 ran them. Tallied by `python3 docs/evidence/run164/issue45.py docs/evidence/run218`.
# Criteria, written before the run (the issues' goals, as the goals table counts them): stationary
# paired >= 0.98 at every intensity; two-phase >= 0.97 of the per-phase best and >= 5 % faster than
# the best fixed n; continuous 64 MiB >= 0.95 of the duplex bound; 704x576 continuous >= 0.98 of
# the copy bound. Each is reported met or not per run, beside the lease's own duplex.
#   bash docs/evidence/run218/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run218 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for k in 1 2; do
  if [ $k = 1 ] || [ $SECONDS -lt 300 ]; then
    timeout 200 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all-$k.txt 2>&1
    echo "adaptive_bench all $k rc=$? ${SECONDS}s"
    grep -E "calibrated:|^(1|50|200|500|1000|3000) |per-phase best|faster" $R/adaptive-all-$k.txt
  fi
  if [ $k = 1 ] || [ $SECONDS -lt 480 ]; then
    timeout 60 .device/bin/histogram_bench sizes --kernel=shared --cont-batches=300 \
      > $R/histogram-sizes-$k.txt 2>&1
    echo "histogram_bench sizes $k rc=$? ${SECONDS}s"
    grep -E "^(176|352|704|1920)" $R/histogram-sizes-$k.txt
  fi
done
tar -C $OUT -czf $OUT/run218.tgz run218 && rm -rf $R
