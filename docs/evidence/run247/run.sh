# Run 247 (session 44): the final code (437f2b6, the CLI's mends: `streampipe histogram` now
# checks the GPU, profile and calibration before it opens its output) on one H100: every GPU
# suite, and `streampipe histogram` on the GPU with a fixed n and an earlier output.
# Criterion, written before the run: every GPU suite passes (adaptive 10, cli_gpu 5, core 260,
# resources 7, fault 3, histogram 6, pipeline 39 and the two-device test skipped, video 124);
# the histogram of section 4.4's 4096 frames on the GPU equals the CPU's, byte for byte.
#   bash docs/evidence/run247/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run247 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
echo "an earlier output" > $R/h-gpu.csv
.device/bin/streampipe histogram --synthetic=section44 --frames=4096 --streams=16 \
  --output=$R/h-gpu.csv 2> $R/h-gpu.log; echo "histogram gpu rc=$?"
.device/bin/streampipe histogram --synthetic=section44 --frames=4096 --device=cpu \
  --output=$R/h-cpu.csv 2> $R/h-cpu.log; echo "histogram cpu rc=$?"
cmp $R/h-gpu.csv $R/h-cpu.csv && echo "histograms: GPU = CPU, $(wc -l < $R/h-gpu.csv) rows"
tail -3 $R/h-gpu.log
rm -f $R/h-gpu.csv $R/h-cpu.csv
tar -C $OUT -czf $OUT/run247.tgz run247 && rm -rf $R
