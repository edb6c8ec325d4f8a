# Run 283 (session 51): the mends of four reviews (CLI outputs naming a descriptor, the sweep's
# staging files in its same-file check, the profile's exit codes, config key flags, the
# controller's measurement of short batches and its candidate rules for other sizes, the
# source's over-count in RunContinuous), on whatever GPU `device` lends (no H100 kind was
# offered).
# Criteria, written before the run:
#  1. scripts/gpu-evidence tests exits 0 and every GPU suite passes: adaptive 10, cli_gpu 7,
#     core 293, resources 9, fault 4, histogram 6, pipeline 46 and the two-device test
#     skipped, video 127;
#  2. scripts/demo's GPU path (test/scripts/demo_test.sh, now checking the histograms'
#     content) exits 0;
#  3. histogram --device=gpu --output=/dev/stdout appended to a file keeps the file's line
#     before and writes the same histograms as --device=cpu to a file, byte for byte;
#  4. compute-sanitizer memcheck finds 0 errors on the changed adaptive test
#     (SourceAndSinkErrorsStopTheRunNamingTheBatch).
#   bash docs/evidence/run283/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run283 && mkdir -p $R && nvidia-smi > $R/gpu.txt
scripts/gpu-evidence tests $R/ge .device > $R/gpu-tests.txt 2>&1
echo "1. gpu-evidence tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | head -30
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "2. demo rc=$? ${SECONDS}s"; tail -1 $R/demo.txt
echo "the line before" > $R/log.txt
( .device/bin/streampipe histogram --device=gpu --quiet --synthetic=section44 --frames=256 \
    --width=704 --height=576 --output=/dev/stdout >> $R/log.txt ) 2> $R/stdout-gpu.err
echo "3. gpu to /dev/stdout >> log rc=$? lines=$(wc -l < $R/log.txt) first='$(head -1 $R/log.txt)'"
.device/bin/streampipe histogram --device=cpu --quiet --synthetic=section44 --frames=256 \
  --width=704 --height=576 --output=$R/cpu.csv 2> $R/cpu.err
tail -n +2 $R/log.txt | cmp - $R/cpu.csv && echo "3. gpu (through stdout) = cpu"
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
$cs --tool memcheck --report-api-errors no .device/bin/adaptive_gpu_test \
  --gtest_filter='*SourceAndSinkErrorsStopTheRunNamingTheBatch*' > $R/memcheck.txt 2>&1
echo "4. memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.txt | tr '\n' ' ')"
echo "done ${SECONDS}s"
rm -f $R/cpu.csv && gzip $R/log.txt
tar -C $OUT -czf $OUT/run283.tgz run283 && rm -rf $R
