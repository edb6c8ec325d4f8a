# Run 168 (session 29's final code, 85a9e30; run 163's bundle): initcheck, then memcheck, of
# pipeline_test with scripts/gpu-evidence's filter as it is now (the EveryN sweeps and the
# calibration-fit test out under the tools). Logs packed.
#   bash docs/evidence/run168/run.sh     # with .device.txz carried; everything in $OUT/run168.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run168 && mkdir -p $R && nvidia-smi > $R/gpu.txt
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
filt='-*EveryN*:*EveryN/depth_first_pinned*:*EveryN/engine_per_stream_pageable*:*CalibrationFitsTheAddScalarSweepOnThisCard*'
for run in "initcheck|pipeline_test|$filt" "memcheck --leak-check full|pipeline_test|$filt"; do
  IFS='|' read -r tool test filter <<<"$run"
  log="$R/san-${tool%% *}-$test.log"
  start=$SECONDS
  timeout $((585 - SECONDS)) $cs --tool $tool --report-api-errors no --error-exitcode 99 \
    .device/bin/$test --gtest_brief=1 "--gtest_filter=$filter" >"$log" 2>&1
  printf '%-30s %-20s rc=%d  %s | %s  (%ds)\n' "$tool" "$test" $? \
    "$(grep -m1 -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards? displayed)' "$log")" \
    "$(grep -m1 -E '^\[  (PASSED|FAILED)' "$log")" $((SECONDS - start))
  [ $SECONDS -gt 560 ] && break
done | tee $R/sanitizers.txt
gzip $R/*.log
tar -C $OUT -czf $OUT/run168.tgz run168 && rm -rf $R
