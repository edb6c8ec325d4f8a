# Run 166 (session 29's final code, 85a9e30; run 163's bundle): the sanitizer runs that run 165's
# call had no time for (racecheck, initcheck and synccheck of the GPU tests, as
# scripts/gpu-evidence runs them), and PipelineTest.CalibrationFitsTheAddScalarSweepOnThisCard
# alone under memcheck (it failed there in run 165 with 0 errors: the log says why). Logs packed.
#   bash docs/evidence/run166/run.sh     # with .device.txz carried; everything in $OUT/run166.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run166 && mkdir -p $R && nvidia-smi > $R/gpu.txt
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
filt='-*EveryN*:*EveryN/depth_first_pinned*:*EveryN/engine_per_stream_pageable*'
for run in "memcheck --leak-check full|pipeline_test|*CalibrationFitsTheAddScalarSweepOnThisCard*" \
           "racecheck|histogram_gpu_test|*" \
           "racecheck|pipeline_test|*DifferentInput*:*Timeline*" \
           "synccheck|histogram_gpu_test|*" \
           "synccheck|pipeline_test|*DifferentInput*:*Automatic*" \
           "initcheck|histogram_gpu_test|*" \
           "initcheck|pipeline_test|$filt"; do
  IFS='|' read -r tool test filter <<<"$run"
  log="$R/san-${tool%% *}-$test.log"
  start=$SECONDS
  timeout 300 $cs --tool $tool --report-api-errors no --error-exitcode 99 .device/bin/$test \
    --gtest_brief=1 "--gtest_filter=$filter" >"$log" 2>&1
  printf '%-30s %-20s rc=%d  %s | %s  (%ds)\n' "$tool" "$test" $? \
    "$(grep -m1 -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards? displayed)' "$log")" \
    "$(grep -m1 -E '^\[  (PASSED|FAILED)' "$log")" $((SECONDS - start))
  [ $SECONDS -gt 540 ] && break
done | tee $R/sanitizers.txt
grep -B2 -A12 "Failure" $R/san-memcheck-pipeline_test.log | head -40
tar -C $OUT -czf $OUT/run166.tgz run166 && rm -rf $R
