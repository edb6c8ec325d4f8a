# Run 281 (session 50): the final code on the GPU, after the second review's mends (the
# pipeline's early checks, the event log a failed Create made, the first error's payloads, a
# negative source count; the calibration's zeroing on its own stream; two more sticky errors).
# Criteria, written before the run:
#  1. scripts/gpu-evidence tests exits 0 and every GPU suite passes: adaptive 10, cli_gpu 6,
#     core 273, resources 9, fault 4, histogram 6, pipeline 46 and the two-device test
#     skipped, video 127;
#  2. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0;
#  3. `streampipe calibrate` (the calibration's changed zeroing) exits 0 three times, its G
#     and duplex G within 10 % of run 257's H200 profile each way (g is reported: it moves
#     more between leases);
#  4. compute-sanitizer memcheck over the tests this session changed (the adaptive test's
#     source and sink errors, the pipeline's options test, the fault test's child is not run
#     under it): 0 errors.
#   bash docs/evidence/run281/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run281 && mkdir -p $R && nvidia-smi > $R/gpu.txt
scripts/gpu-evidence tests $R/ge .device > $R/gpu-tests.txt 2>&1
echo "1. gpu-evidence tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | head -30
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "2. demo rc=$? ${SECONDS}s"; tail -1 $R/demo.txt
for i in 1 2 3; do
  .device/bin/streampipe calibrate --output=$R/h200-$i.toml > $R/calibrate-$i.txt 2>&1
  echo "3. calibrate $i rc=$? ${SECONDS}s"
done
grep -h -E '^(ms_per_byte|duplex_ms_per_byte|gap_ms) ' $R/h200-*.toml docs/evidence/run257/h200-1.toml | sort | uniq -c | head -20
for f in $R/h200-1.toml $R/h200-2.toml $R/h200-3.toml docs/evidence/run257/h200-1.toml; do
  echo "$f: $(grep -E '^(ms_per_byte|duplex_ms_per_byte|gap_ms) ' $f | tr '\n' ' ')"
done
cs=compute-sanitizer; command -v $cs > /dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
$cs --tool memcheck --report-api-errors no --error-exitcode 99 .device/bin/adaptive_gpu_test \
  --gtest_brief=1 '--gtest_filter=*SourceAndSinkErrors*:*ThrowsStopsTheRun*' > $R/memcheck-adaptive.txt 2>&1
echo "4a. memcheck adaptive rc=$? $(grep -m1 -oE 'ERROR SUMMARY: [0-9]+ errors?' $R/memcheck-adaptive.txt) $(grep -m1 -E '^\[  (PASSED|FAILED)' $R/memcheck-adaptive.txt)"
$cs --tool memcheck --report-api-errors no --error-exitcode 99 .device/bin/pipeline_test \
  --gtest_brief=1 '--gtest_filter=PipelineOptionsTest.*:*AnotherCardsProfile*' > $R/memcheck-pipeline.txt 2>&1
echo "4b. memcheck pipeline rc=$? $(grep -m1 -oE 'ERROR SUMMARY: [0-9]+ errors?' $R/memcheck-pipeline.txt) $(grep -m1 -E '^\[  (PASSED|FAILED)' $R/memcheck-pipeline.txt)"
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run281.tgz run281 && rm -rf $R
