# Run 266 (session 47): the session's final library on one H200 (no H100 kind is lent): every
# GPU suite, with the pipeline test of the breadth-first issue share.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 265, resources 7, fault 3,
#     histogram 6, pipeline 41 and the two-device test skipped (one GPU), video 124;
#  2. pipeline_test's TheBreadthFirstIssueShareAppliesToBreadthFirstOrderAlone passes;
#  3. scripts/demo's GPU path still prints PASS (test/scripts/demo_test.sh).
#   bash docs/evidence/run266/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run266 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
grep -E "TheBreadthFirstIssueShare" $R/tests/pipeline_test.xml | grep -o 'name="[^"]*" status="[^"]*" result="[^"]*"' | sed 's/^/2. /'
bash test/scripts/demo_test.sh . .device/bin/streampipe > $R/demo.txt 2>&1; echo "3. demo_test rc=$?"; tail -1 $R/demo.txt
tar -C $OUT -czf $OUT/run266.tgz run266 && rm -rf $R
