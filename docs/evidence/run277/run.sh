# Run 277 (session 49): TheStartEventBoundsABatchAloneAndNeverItsPeriod repeated, to exercise its
# second check (runs 274-276 saw no early span, so it was not), on whatever GPU `device` lends.
# Criterion, written before the run:
#  1. 60 repeats with the default 8 hardware queues: every repeat passes (alone, no span before
#     its start event; in flight, no batch with such spans has its start event after the latest
#     end before). The counts of early spans are tallied, whatever they are;
#  2. the same 30 repeats with CUDA_DEVICE_MAX_CONNECTIONS=32 (a queue per stream up to 32):
#     tallied; if early spans come from sharing the 8 queues, fewer or none at n = 16 and 32.
#   bash docs/evidence/run277/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run277 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/bin/pipeline_test --gtest_filter='*TheStartEventBounds*' --gtest_repeat=60 > $R/default.txt 2>&1
echo "1. rc=$? ${SECONDS}s $(grep -c 'OK \]' $R/default.txt) passed, $(grep -c 'FAILED \]' $R/default.txt) failed lines"
grep "start event \]" $R/default.txt | grep -v ": 0 of" | sort | uniq -c | head -30
CUDA_DEVICE_MAX_CONNECTIONS=32 .device/bin/pipeline_test --gtest_filter='*TheStartEventBounds*' --gtest_repeat=30 > $R/connections32.txt 2>&1
echo "2. rc=$? ${SECONDS}s $(grep -c 'OK \]' $R/connections32.txt) passed"
grep "start event \]" $R/connections32.txt | grep -v ": 0 of" | sort | uniq -c | head -30
tar -C $OUT -czf $OUT/run277.tgz run277 && rm -rf $R
