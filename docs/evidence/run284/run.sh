# Run 284 (session 51): the session's final code: run 283's, with the mends of the read-through
# of the session's diff and of a review of the pipeline's error paths (RunContinuous returns
# the faulting batch's own error; Collect waits for a call-by-call batch's start event; an
# overlapped sample of mixed sizes per item; graphs cached by n and items), on whatever GPU
# `device` lends (no H100 kind was offered).
# Criteria, written before the run:
#  1. scripts/gpu-evidence tests exits 0 and every GPU suite passes: adaptive 10, cli_gpu 7,
#     core 293, resources 9, fault 5, histogram 6, pipeline 49 and the two-device test
#     skipped, video 127;
#  2. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0;
#  3. histogram --device=gpu through a link to the directory /dev/fd (fd-link/1) appended to
#     a file keeps the file's line before and equals --device=cpu's output byte for byte;
#  4. compute-sanitizer memcheck finds 0 errors on the new graph test
#     (TwoSizesAlternatingAtOneNAreEachCapturedOnce) and the changed adaptive test.
#   bash docs/evidence/run284/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run284 && mkdir -p $R && nvidia-smi > $R/gpu.txt
scripts/gpu-evidence tests $R/ge .device > $R/gpu-tests.txt 2>&1
echo "1. gpu-evidence tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | head -30
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "2. demo rc=$? ${SECONDS}s"; tail -1 $R/demo.txt
ln -s /dev/fd $R/fd-link
echo "the line before" > $R/log.txt
( .device/bin/streampipe histogram --device=gpu --quiet --synthetic=section44 --frames=256 \
    --width=704 --height=576 --output=$R/fd-link/1 >> $R/log.txt ) 2> $R/stdout-gpu.err
echo "3. gpu to fd-link/1 >> log rc=$? lines=$(wc -l < $R/log.txt) first='$(head -1 $R/log.txt)'"
.device/bin/streampipe histogram --device=cpu --quiet --synthetic=section44 --frames=256 \
  --width=704 --height=576 --output=$R/cpu.csv 2> $R/cpu.err
tail -n +2 $R/log.txt | cmp - $R/cpu.csv && echo "3. gpu (through fd-link/1) = cpu"
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
$cs --tool memcheck --report-api-errors no .device/bin/pipeline_test \
  --gtest_filter='*TwoSizesAlternatingAtOneNAreEachCapturedOnce*' > $R/memcheck-pipeline.txt 2>&1
echo "4. memcheck pipeline rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck-pipeline.txt | tr '\n' ' ')"
$cs --tool memcheck --report-api-errors no .device/bin/adaptive_gpu_test \
  --gtest_filter='*SourceAndSinkErrorsStopTheRunNamingTheBatch*' > $R/memcheck-adaptive.txt 2>&1
echo "4. memcheck adaptive rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck-adaptive.txt | tr '\n' ' ')"
echo "done ${SECONDS}s"
rm -f $R/cpu.csv $R/fd-link && gzip $R/log.txt
tar -C $OUT -czf $OUT/run284.tgz run284 && rm -rf $R
