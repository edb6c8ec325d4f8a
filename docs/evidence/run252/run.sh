# Run 252 (session 45): pipeline_bench's exits on a GPU (run 251's checks of it matched no
# benchmark: its filter ended in '$' before the names' '/iterations:61/manual_time'; and a run
# that matched nothing exited 0, now 64), then the pipeline against the hand-written loop
# (issue 3) on the final code, one H100 (nvidia-h100-x1).
# Criterion, written before the run:
#  1. pipeline_bench on four points exits 0 and writes a CSV of four rows and its header; with
#     an unwritable --csv it exits 74; with a filter that matches nothing, 64;
#  2. scripts/gpu-evidence pipeline: the pipeline within 2 % of the hand loop at every one of
#     its 48 points.
#   bash docs/evidence/run252/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run252 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt && cat $R/gpu.txt
B=.device/bin
timeout 120 $B/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)/' \
  --csv=$R/pipeline_bench.csv > $R/pipeline_bench.txt 2>&1
echo "pipeline_bench rc=$? ($(grep -c . $R/pipeline_bench.csv) csv lines) ${SECONDS}s"
grep 'pipeline/hand' $R/pipeline_bench.txt
timeout 120 $B/pipeline_bench '--benchmark_filter=BM_Paired/1/1/' \
  --csv=/nonexistent-dir/p.csv > $R/pipeline_bench-74.txt 2>&1
echo "pipeline_bench unwritable --csv rc=$? ($(tail -1 $R/pipeline_bench-74.txt))"
timeout 60 $B/pipeline_bench --benchmark_filter=BM_Nothing > $R/pipeline_bench-64.txt 2>&1
echo "pipeline_bench filter matching nothing rc=$? ($(tail -1 $R/pipeline_bench-64.txt))"
scripts/gpu-evidence pipeline $R/pipeline .device > /dev/null 2>&1
echo "pipeline rc=$? ${SECONDS}s"
grep -o "BM_Paired/[0-9]*/[0-9]*/.*ratio=[0-9.]*" $R/pipeline/pipeline_bench.txt |
  sed -E 's|BM_Paired/([0-9]+)/([0-9]+)/.*ratio=([0-9.]+)|\1 \2 \3|' |
  awk '{d=$3-1; if(d<0)d=-d; if(d>w){w=d; at=$1" n="$2} c++} END{printf "  %d points, worst |pipe/hand - 1| %.2f %% (iters %s)\n", c, 100*w, at}'
grep 'pipeline/hand' $R/pipeline/pipeline_bench.txt
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run252.tgz run252 && rm -rf $R
