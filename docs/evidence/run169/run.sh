# Run 169 (session 29's final code, 85a9e30; run 163's bundle): scripts/gpu-evidence's initcheck
# run of pipeline_test as it is now (run 168's timing tests out under initcheck). Logs packed.
#   bash docs/evidence/run169/run.sh     # with .device.txz carried; everything in $OUT/run169.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run169 && mkdir -p $R
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
filt=$(grep -o '"initcheck|pipeline_test|[^"]*"' scripts/gpu-evidence | cut -d'|' -f3 | tr -d '"')
filt=${filt//\$filt/$(grep -o "^    filt='[^']*'" scripts/gpu-evidence | cut -d"'" -f2)}
echo "filter: $filt" | tee $R/sanitizers.txt
timeout 500 $cs --tool initcheck --report-api-errors no --error-exitcode 99 .device/bin/pipeline_test \
  --gtest_brief=1 "--gtest_filter=$filt" > $R/san-initcheck-pipeline_test.log 2>&1
printf 'initcheck pipeline_test rc=%d  %s | %s  (%ds)\n' $? \
  "$(grep -m1 -oE 'ERROR SUMMARY: [0-9]+ errors?' $R/san-initcheck-pipeline_test.log)" \
  "$(grep -m1 -E '^\[  (PASSED|FAILED)' $R/san-initcheck-pipeline_test.log)" $SECONDS | tee -a $R/sanitizers.txt
gzip $R/*.log
tar -C $OUT -czf $OUT/run169.tgz run169 && rm -rf $R
