# Run 264 (session 47): this session's code on one H200 (no H100 kind is lent this session):
# every GPU suite; scripts/demo's GPU path; README's example as an installed package's consumer
# builds it (a .cu file); a profile written in the new shortest float form; one symmetric sweep
# whose summary the tool now gives per issue mode.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 263, resources 7, fault 3,
#     histogram 6, pipeline 40 and the two-device test skipped (one GPU), video 124;
#  2. test/scripts/demo_test.sh with the bundle's streampipe prints PASS (the GPU path:
#     --device=gpu --kernel=global, 4096 histograms of 704x576), and its histograms equal the
#     CPU's (`histogram --device=cpu` on the same synthetic frames) byte for byte;
#  3. wrap_kernel (test/install/consumer/wrap_kernel.cu, built here against the installed
#     package) exits 0: "wrapped a kernel: 1048576 items right" (checked against the CPU);
#  4. `calibrate --quick --output=new.toml` writes no float of 17 significant digits; a quick
#     sweep with it says nothing of --profile (loaded, not calibrated again);
#  5. the symmetric sweep with run 257's profile exits 0; its rows record the fingerprint
#     fnv1a64:b7007c8425344152 (the one runs 257-259 recorded for that file, before the float
#     form changed); its summary on stdout (--summary=-) has the "Per issue mode" table; its
#     trace replays to its own prediction (criteria.sh, afterwards on the CPU). Goal figures
#     reported, not judged.
#   bash docs/evidence/run264/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run264 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
STREAMPIPE_DEMO_OUT= bash test/scripts/demo_test.sh . .device/bin/streampipe > $R/demo.txt 2>&1
echo "2. demo_test rc=$?"; cat $R/demo.txt | cut -c1-200
D=$R/demo-gpu.csv; C=$R/demo-cpu.csv
.device/bin/streampipe histogram --synthetic=section44 --frames=4096 --width=704 --height=576 \
  --device=gpu --kernel=global --quiet --output=$D; echo "   gpu rc=$?"
.device/bin/streampipe histogram --synthetic=section44 --frames=4096 --width=704 --height=576 \
  --device=cpu --quiet --output=$C; echo "   cpu rc=$?"
cmp $D $C && echo "   GPU histograms equal the CPU's ($(wc -l < $D) lines)"; rm -f $D $C
.device/bin/wrap_kernel > $R/wrap_kernel.txt 2>&1; echo "3. wrap_kernel rc=$?"; cat $R/wrap_kernel.txt
timeout 60 .device/bin/streampipe calibrate --quick --output=$R/new.toml > /dev/null 2>&1
echo "4. calibrate rc=$?; 17-digit floats in it: $(grep -cE '[0-9]\.[0-9]{15,}' $R/new.toml)"
timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$R/new.toml --output=$R/q.csv > $R/quick.txt 2>&1
echo "   quick sweep rc=$? (--profile lines: $(grep -c -- '--profile:' $R/quick.txt))"
timeout 200 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
  --profile=docs/evidence/run257/h200-1.toml --output=$R/sweep-1.csv --summary=- \
  --adaptive-trace=$R/trace-1.csv > $R/summary-1.md 2> $R/sweep-1.log
echo "5. sweep rc=$? ${SECONDS}s; rows with the fingerprint: $(grep -c 'profile=fnv1a64:b7007c8425344152' $R/sweep-1.csv) of $(tail -n +2 $R/sweep-1.csv | wc -l); per-mode table: $(grep -c '### Per issue mode' $R/summary-1.md)"
sed -n '/### Per issue mode/,/### Speed-ups/p' $R/summary-1.md | grep -E '^\| (predictor|calibrated|chooser|adaptive) '
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run264.tgz run264 && rm -rf $R
