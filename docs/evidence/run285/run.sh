# Run 285 (session 51): run 284's code with a wait's timeout marked (only a GPU wait that timed
# out stops the pipeline; a launcher's own DeadlineExceeded does not) and IsPinned's sticky
# error, on whatever GPU `device` lends (no H100 kind was offered).
# Criteria, written before the run:
#  1. scripts/gpu-evidence tests exits 0 and every GPU suite passes: adaptive 10, cli_gpu 7,
#     core 293, resources 10, fault 5, histogram 6, pipeline 50 and the two-device test
#     skipped, video 127 (fault's hang tests: a GPU that does not finish still stops the
#     pipeline, DeadlineExceeded, and refuses the next batch);
#  2. compute-sanitizer memcheck finds 0 errors on ALaunchersOwnDeadlineDoesNotStopThePipeline.
#   bash docs/evidence/run285/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run285 && mkdir -p $R && nvidia-smi > $R/gpu.txt
scripts/gpu-evidence tests $R/ge .device > $R/gpu-tests.txt 2>&1
echo "1. gpu-evidence tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | head -30
cs=compute-sanitizer; command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
$cs --tool memcheck --report-api-errors no .device/bin/pipeline_test \
  --gtest_filter='*ALaunchersOwnDeadlineDoesNotStopThePipeline*' > $R/memcheck.txt 2>&1
echo "2. memcheck rc=$? $(grep -E 'ERROR SUMMARY|PASSED|FAILED' $R/memcheck.txt | tr '\n' ' ')"
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run285.tgz run285 && rm -rf $R
