# Run 268 (session 47): the read-through's mends (behaviour kept) on one H200 (no H100 kind is
# lent this session): every GPU suite, and the bench tools the mends touch.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 266, resources 7, fault 3,
#     histogram 6, pipeline 41 and the two-device test skipped (one GPU), video 124;
#  2. adaptive_bench all --batches=100 and histogram_bench sizes, s44 and contdiag exit 0 with
#     their tables (the wrappers now forward to bench::OkOrExit's joined message);
#  3. pipeline_bench BM_Paired at 4 points exits 0; the pipeline within 2 % of the hand loop at
#     each (issue 3's goal; reported from its CSV afterwards).
#   bash docs/evidence/run268/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run268 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
timeout 120 .device/bin/adaptive_bench all --batches=100 > $R/adaptive-all.txt 2>&1
echo "2. adaptive_bench all rc=$? ${SECONDS}s"; grep -E '^== |^per-phase|^best single' $R/adaptive-all.txt
for s in sizes s44 contdiag; do
  timeout 90 .device/bin/histogram_bench $s --cont-batches=100 > $R/histogram-$s.txt 2>&1
  echo "   histogram_bench $s rc=$? ${SECONDS}s"; grep -E '^== |^diag:|^[0-9]+x[0-9]+' $R/histogram-$s.txt | cut -c1-150
done
timeout 90 .device/bin/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)/' \
  --csv=$R/pipeline_bench.csv > $R/pipeline_bench.txt 2>&1
echo "3. pipeline_bench rc=$? ($(grep -c . $R/pipeline_bench.csv) csv lines)"; cat $R/pipeline_bench.csv
tar -C $OUT -czf $OUT/run268.tgz run268 && rm -rf $R
