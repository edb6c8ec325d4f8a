# Run 257 (session 46): session 46's code on one H200 (`nvidia-h200`; no H100 kind is lent this
# session): every GPU suite, the bench tools whose resources and batches are now checked, three
# calibrations of this card, and a symmetric sweep if time is left, with this card's first
# calibration as its profile (the H100's profile names another device: the sweep would
# calibrate anew and write over it, lib/cuda/calibrate.cpp LoadOrCalibrate).
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 5, core 262, resources 7, fault 3,
#     histogram 6, pipeline 39 and the two-device test skipped (one GPU), video 124;
#  2. each changed tool runs whole and exits 0 on a working GPU: adaptive_bench all
#     --batches=100 (stationary, two-phase and continuous tables printed), histogram_bench sizes
#     (four frame sizes), s44 and contdiag (a "diag:" line), pipeline_bench on four points (a CSV
#     of a header and four rows), soak --frames=65536 (0 wrong, flat);
#  3. `streampipe calibrate` three times: each exits 0 and writes a profile; the three agree
#     within 10 % of their median on G (h2d and d2h ms_per_byte), the two-stream duplex rate
#     (duplex_gbps) and g (h2d and d2h gap_ms) (reported against the H100's anchors, not judged:
#     another card; calibrate.py, afterwards on the CPU);
#  4. the symmetric sweep, if it runs: its trace replays to its own prediction within 0.1 % at
#     every point (criteria.sh, afterwards on the CPU); its goal figures are reported, not judged.
#   bash docs/evidence/run257/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run257 && mkdir -p $R && nvidia-smi > $R/gpu.txt
nvidia-smi --query-gpu=name,pci.bus_id,pcie.link.gen.max,pcie.link.width.max,driver_version --format=csv
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
timeout 120 .device/bin/adaptive_bench all --batches=100 > $R/adaptive-all.txt 2>&1
echo "adaptive_bench all rc=$? ${SECONDS}s"; grep -E '^== |^per-phase|^best single' $R/adaptive-all.txt
for s in sizes s44 contdiag; do
  timeout 90 .device/bin/histogram_bench $s --cont-batches=100 > $R/histogram-$s.txt 2>&1
  echo "histogram_bench $s rc=$? ${SECONDS}s"; grep -E '^== |^diag:|^[0-9]+x[0-9]+' $R/histogram-$s.txt | cut -c1-150
done
timeout 90 .device/bin/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)/' \
  --csv=$R/pipeline_bench.csv > $R/pipeline_bench.txt 2>&1
echo "pipeline_bench rc=$? ($(grep -c . $R/pipeline_bench.csv) csv lines)"
grep 'pipeline/hand' $R/pipeline_bench.txt
timeout 60 .device/bin/soak --frames=65536 --width=64 --height=64 --remeasure-every=16384 \
  > $R/soak-short.txt 2>&1
echo "soak short rc=$?"; grep '^soak:' $R/soak-short.txt | cut -c1-220
for k in 1 2 3; do
  timeout 60 .device/bin/streampipe calibrate --output=$R/h200-$k.toml > $R/calibrate-$k.txt 2>&1
  echo "calibrate $k rc=$? ${SECONDS}s"
done
grep -E '^(name|ms_per_byte|gap_ms|duplex_gbps|stream_overhead_ms)' $R/h200-*.toml
if [ $SECONDS -lt 380 ]; then
  timeout 200 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=$R/h200-1.toml --output=$R/sweep-1.csv --summary=$R/summary-1.md \
    --adaptive-trace=$R/trace-1.csv 2> $R/sweep-1.log
  echo "sweep 1 rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-1.log | cut -c1-120
fi
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run257.tgz run257 && rm -rf $R
