# Run 251 (session 45): session 45's final code on one H100 (nvidia-h100-x1): every GPU suite,
# the soak mended after run 250 (a short run, and issue 7's million frames), and two symmetric
# sweeps with their adaptive runs traced (the model and controller are session 43's, unchanged:
# one more lease for the goal table).
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 5, core 262, resources 7, fault 3,
#     histogram 6, pipeline 39 and the two-device test skipped (one GPU), video 124;
#  2. soak --frames=65536 (64x64) exits 0: 0 histograms wrong, live counts flat; so does
#     soak --frames=12288, the new minimum (amended before the run, after a review);
#     pipeline_bench on four points exits 0 and writes its CSV, and exits 74 where --csv cannot
#     be written (amended likewise);
#     soak (1,000,000 frames of 704x576) exits 0: 0 wrong, flat, RSS growth under 4 MiB;
#  3. bench/trace_replay (CPU, afterwards) replays each sweep's trace to its own prediction
#     within 0.1 % at every point. The sweeps' goal figures are reported, not judged.
#   bash docs/evidence/run251/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run251 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
timeout 60 .device/bin/soak --frames=65536 --width=64 --height=64 --remeasure-every=16384 \
  > $R/soak-short.txt 2>&1
echo "soak short rc=$?"; grep '^soak:' $R/soak-short.txt | cut -c1-220
timeout 60 .device/bin/soak --frames=12288 --width=64 --height=64 --remeasure-every=4096 \
  > $R/soak-min.txt 2>&1
echo "soak at the minimum rc=$?"; grep '^soak:' $R/soak-min.txt | cut -c1-220
timeout 90 .device/bin/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)$' \
  --csv=$R/pipeline_bench.csv > $R/pipeline_bench.txt 2>&1
echo "pipeline_bench rc=$? ($(grep -c . $R/pipeline_bench.csv) csv lines)"
grep 'pipeline/hand' $R/pipeline_bench.txt
timeout 90 .device/bin/pipeline_bench '--benchmark_filter=BM_Paired/1/1$' \
  --csv=/nonexistent-dir/p.csv > $R/pipeline_bench-74.txt 2>&1
echo "pipeline_bench unwritable --csv rc=$? ($(tail -1 $R/pipeline_bench-74.txt))"
timeout 90 .device/bin/soak > $R/soak-1m.txt 2>&1
echo "soak 1M rc=$? ${SECONDS}s"; grep '^soak:' $R/soak-1m.txt | cut -c1-260
for k in 1 2; do
  if [ $SECONDS -lt 330 ]; then
    timeout 200 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
      --profile=docs/evidence/run117/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md \
      --adaptive-trace=$R/trace-$k.csv 2> $R/sweep-$k.log
    echo "sweep $k rc=$? ${SECONDS}s"
    grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-$k.log | cut -c1-120
  fi
done
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run251.tgz run251 && rm -rf $R
