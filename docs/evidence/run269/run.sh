# Run 269 (session 48): the mends of three reviews (CLI, pipeline runtime, controller) on two
# H200s (no H100 kind is lent this session; two GPUs so that the two-device test runs, with its
# new check that Calibrate leaves the caller's device current).
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 268, resources 8, fault 4,
#     histogram 6, pipeline 44 with the two-device test run (not skipped), video 124; among them
#     the new ones: AWaitWithTheLargestTimeoutWaitsForTheWork, ABatchAfterADrainThatTimedOutIsRefused,
#     AMovedFromPipelineSaysSoInsteadOfCrashing, CreatingAPipelineLeavesAnotherThreadsCaptureWhole;
#  2. one symmetric sweep with the H200 profile (the controller's new item-count rule must not
#     touch equal batches): its trace replays (bench/trace_replay, on the CPU machine after) to
#     its own prediction (0.00 %); its median error
#     <= 3 % and mean choice >= 0.98 in both issue modes (the goals; max and worst reported);
#  3. adaptive_bench all --batches=100 and histogram_bench sizes exit 0 with their tables
#     (continuous runs whose last batch is short, and the stationary/two-phase runs);
#  4. pipeline_bench BM_Paired at 4 points: the pipeline within 2 % of the hand loop at each.
#   bash docs/evidence/run269/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run269 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
grep -h "EveryCallRunsOnThePipelinesDevice" $R/tests/pipeline_test.log | head -3
cp docs/evidence/run257/h200-1.toml $R/h200.toml
timeout 240 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml --profile=$R/h200.toml \
  --output=$R/sweep-1.csv --summary=$R/summary-1.md --adaptive-trace=$R/trace-1.csv > $R/sweep-1.txt 2>&1
echo "2. sweep rc=$? ${SECONDS}s"; tail -5 $R/sweep-1.txt
timeout 120 .device/bin/adaptive_bench all --batches=100 > $R/adaptive-all.txt 2>&1
echo "3. adaptive_bench all rc=$? ${SECONDS}s"; grep -E '^== |^per-phase|^best single' $R/adaptive-all.txt
timeout 90 .device/bin/histogram_bench sizes --cont-batches=100 > $R/histogram-sizes.txt 2>&1
echo "   histogram_bench sizes rc=$? ${SECONDS}s"; grep -E '^== |^[0-9]+x[0-9]+' $R/histogram-sizes.txt | cut -c1-150
timeout 90 .device/bin/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)/' \
  --csv=$R/pipeline_bench.csv > $R/pipeline_bench.txt 2>&1
echo "4. pipeline_bench rc=$? ($(grep -c . $R/pipeline_bench.csv) csv lines) ${SECONDS}s"; cat $R/pipeline_bench.csv
gzip $R/sweep-1.csv $R/trace-1.csv
tar -C $OUT -czf $OUT/run269.tgz run269 && rm -rf $R
