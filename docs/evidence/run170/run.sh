# Run 170 (session 29's final code, 85a9e30; run 163's bundle): issue 3's pipeline against a
# hand-written loop on the current code (last measured in run 24): scripts/gpu-evidence pipeline
# (pipeline_bench, 61 pairs per point, the median of the per-pair ratios), as many times as the
# call allows, up to three. Everything packed.
#   bash docs/evidence/run170/run.sh     # with .device.txz carried; everything in $OUT/run170.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run170 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for k in 1 2 3; do
  if [ $k = 1 ] || [ $SECONDS -lt $((k == 2 ? 280 : 380)) ]; then
    scripts/gpu-evidence pipeline $R/pipeline-$k .device > /dev/null 2>&1
    echo "pipeline $k rc=$? ${SECONDS}s"
    grep -o "BM_Paired/[0-9]*/[0-9]*/.*ratio=[0-9.]*" $R/pipeline-$k/pipeline_bench.txt |
      sed -E 's|BM_Paired/([0-9]+)/([0-9]+)/.*ratio=([0-9.]+)|\1 \2 \3|' |
      awk '{d=$3-1; if(d<0)d=-d; if(d>w){w=d; at=$1" n="$2} c++} END{printf "  %d points, worst |pipe/hand - 1| %.2f %% (iters %s)\n", c, 100*w, at}'
  fi
done
tar -C $OUT -czf $OUT/run170.tgz run170 && rm -rf $R
