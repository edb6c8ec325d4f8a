# Run 195 (session 34): the final code's GPU tests (ae3b39b; the anchor check off by default, so
# the default path is e6d036e's): adaptive and pipeline (the bundle the device tool's
# size limit leaves room for, `scripts/device-bundle --pack
# --only=adaptive_gpu_test,pipeline_test`).
#   bash docs/evidence/run195/run.sh
set -u
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run195 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$?"; cat $R/gpu-tests.txt
tar -C $OUT -czf $OUT/run195.tgz run195 && rm -rf $R
