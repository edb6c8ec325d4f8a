# Run 242's criterion (run.sh's header), judged on its logs: bash criteria.sh DIR
# Amended after the run, the criterion unchanged: as first written, the suites' counts were
# grepped with one space inside "[  PASSED  ]" and the two-device test looked for in the brief
# log, which prints no line for a test that passes; both read every line as a miss.
d=${1:-docs/evidence/run242}
ok=1
want="adaptive_gpu_test:10 cli_gpu_test:5 core_test:260 cuda_resources_test:7 fault_test:3 histogram_gpu_test:6 pipeline_test:40 video_test:124"
for w in $want; do
  n=${w%%:*}; c=${w#*:}
  line=$(grep "^$n " $d/gpu-tests.txt)
  if echo "$line" | grep -q "rc=0" && echo "$line" | grep -q "PASSED  \] $c test"; then
    echo "1. $n: $c passed"
  else
    echo "1. $n: NOT as wanted: $line"; ok=0
  fi
done
# (--gtest_brief prints no line for a test that passed: the XML says whether it ran.)
if grep -q '<testcase name="EveryCallRunsOnThePipelinesDeviceAndLeavesTheCallersCurrent"[^>]*result="completed"' $d/tests/pipeline_test.xml \
   && ! grep -A3 'name="EveryCallRuns' $d/tests/pipeline_test.xml | grep -q "<failure\|<skipped"; then
  echo "1. the two-device test ran and passed"
else
  echo "1. the two-device test did NOT run and pass"; ok=0
fi
for f in $d/old-*.log; do
  t=$(basename $f .log); t=${t#old-}
  if grep -q "^\[  PASSED  \] 1 test" $f; then echo "2. $t PASSED on the old library"; ok=0
  else echo "2. $t fails on the old library: $(grep -m1 -E 'Failure|FAILED|Segmentation|Aborted|what\(\)' $f | cut -c1-100)"; fi
done
for p in $d/pipeline-*/pipeline_bench.txt; do
  grep -o "BM_Paired/[0-9]*/[0-9]*/.*ratio=[0-9.]*" $p |
    sed -E 's|BM_Paired/([0-9]+)/([0-9]+)/.*ratio=([0-9.]+)|\1 \2 \3|' |
    awk -v f=$p '{d=$3-1; if(d<0)d=-d; if(d>w){w=d; at=$1" n="$2} c++} END{printf "3. %s: %d points, worst %.2f %% (iters %s) %s\n", f, c, 100*w, at, (w<=0.02?"within 2 %":"OVER 2 %")}'
done | tee /tmp/crit3.txt
grep -q "OVER" /tmp/crit3.txt && ok=0
echo "criterion met: $([ $ok = 1 ] && echo yes || echo no)"
