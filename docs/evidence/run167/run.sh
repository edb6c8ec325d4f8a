# Run 167 (session 29's final code, 85a9e30; run 163's bundle): the sanitizer runs left after
# runs 165-166, as scripts/gpu-evidence runs them: synccheck of the histogram and pipeline tests,
# initcheck of the histogram tests (initcheck of pipeline_test, ~36 tests, did not fit). Logs packed.
#   bash docs/evidence/run167/run.sh     # with .device.txz carried; everything in $OUT/run167.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run167 && mkdir -p $R && nvidia-smi > $R/gpu.txt
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
for run in "synccheck|histogram_gpu_test|*" \
           "synccheck|pipeline_test|*DifferentInput*:*Automatic*" \
           "initcheck|histogram_gpu_test|*"; do
  IFS='|' read -r tool test filter <<<"$run"
  log="$R/san-${tool%% *}-$test.log"
  start=$SECONDS
  timeout $((580 - SECONDS)) $cs --tool $tool --report-api-errors no --error-exitcode 99 \
    .device/bin/$test --gtest_brief=1 "--gtest_filter=$filter" >"$log" 2>&1
  printf '%-30s %-20s rc=%d  %s | %s  (%ds)\n' "$tool" "$test" $? \
    "$(grep -m1 -oE '(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards? displayed)' "$log")" \
    "$(grep -m1 -E '^\[  (PASSED|FAILED)' "$log")" $((SECONDS - start))
  [ $SECONDS -gt 560 ] && break
done | tee $R/sanitizers.txt
gzip $R/*.log
tar -C $OUT -czf $OUT/run167.tgz run167 && rm -rf $R
