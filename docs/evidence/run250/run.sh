# Run 250 (session 45): session 45's code (6c186a3: the bench tools' exit codes, the CLI's mends)
# on two GPUs (nvidia-h100-x2; the x2 kind may come as H200s), so that the two-device pipeline
# test runs too.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 5, core 262, resources 7, fault 3,
#     histogram 6, pipeline 40 (the two-device test run, not skipped), video 124;
#  2. the bench tools whose exits changed still run on a GPU and exit 0 (issue_cost,
#     inline_ladder, instance_spread with a small grid, soak with 64 Ki frames), and
#     instance_spread with an unwritable --batches exits 74;
#  3. `streampipe sweep --config=bench/sweeps/smoke.toml` with a --trace-dir it has to create
#     exits 0 and leaves that directory with its six traces (the directory a refused sweep made
#     is removed; one that wrote its traces keeps them);
#  4. `streampipe histogram --device=gpu --kernel=shared-atomic --streams=8` over section 4.4's
#     4096 frames equals the CPU's output byte for byte.
#   bash docs/evidence/run250/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run250 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt && cat $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
grep -E 'EveryCallRunsOnThePipelinesDevice' $R/tests/pipeline_test.log | head -3
B=.device/bin
timeout 60 $B/issue_cost --rounds=3 --calls=8 > $R/issue_cost.txt 2>&1; echo "issue_cost rc=$?"
timeout 120 $B/inline_ladder --streams=4 --issue=streams --repeat=1 --reps=3 > $R/inline_ladder.txt 2>&1
echo "inline_ladder rc=$?"
timeout 120 $B/instance_spread --instances=2 --rounds=2 --per-visit=1 --size-mib=4 --iters=1 \
  --orders=depth-first --issue=streams --streams=1,4 > $R/instance_spread.txt 2>&1
echo "instance_spread rc=$?"
timeout 60 $B/instance_spread --batches=/nonexistent-dir/b.csv > $R/instance_spread-74.txt 2>&1
echo "instance_spread unwritable --batches rc=$? ($(tail -1 $R/instance_spread-74.txt))"
timeout 120 $B/soak --frames=65536 --width=64 --height=64 --remeasure-every=16384 > $R/soak.txt 2>&1
echo "soak rc=$? ($(tail -1 $R/soak.txt))"
timeout 240 $B/streampipe sweep --config=bench/sweeps/smoke.toml --output=$R/smoke.csv \
  --summary=$R/smoke.md --trace-dir=$R/made/traces > $R/smoke.log 2>&1
echo "smoke sweep rc=$? ${SECONDS}s; traces: $(ls $R/made/traces | tr '\n' ' ')"
$B/streampipe histogram --synthetic=section44 --frames=4096 --kernel=shared-atomic --streams=8 \
  --output=$R/h-gpu.csv 2> $R/h-gpu.log; echo "histogram gpu rc=$?"
$B/streampipe histogram --synthetic=section44 --frames=4096 --device=cpu \
  --output=$R/h-cpu.csv 2> $R/h-cpu.log; echo "histogram cpu rc=$?"
cmp $R/h-gpu.csv $R/h-cpu.csv && echo "histograms: GPU = CPU, $(wc -l < $R/h-gpu.csv) rows"
rm -f $R/h-gpu.csv $R/h-cpu.csv
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run250.tgz run250 && rm -rf $R
