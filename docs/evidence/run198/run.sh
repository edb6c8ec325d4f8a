# Run 198 (session 35): 21212c8's GPU tests, adaptive and pipeline (the pipeline now gives the
# controller back a plan whose batch cannot be collected while it goes on); the bundle the device
# tool's size limit leaves room for: `scripts/device-bundle --pack
# --only=adaptive_gpu_test,pipeline_test`.
#   bash docs/evidence/run198/run.sh
set -u
rm -rf .device && tar -xJf .device.txz
R=$OUT/run198 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$?"; cat $R/gpu-tests.txt
tar -C $OUT -czf $OUT/run198.tgz run198 && rm -rf $R
