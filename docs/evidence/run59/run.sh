# Run 59: the final code (after the review): every GPU test, and adaptive_bench continuous
# (batches overlap: the confirming visit now waits for samples of n*, not batches).
cd .device && . ./env.sh && cd .. && R=$OUT/run59 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 120 .device/bin/adaptive_bench continuous --batches=400 > $R/continuous.txt 2>&1; echo "continuous rc=$? ${SECONDS}s"; cat $R/continuous.txt
cd $OUT && tar czf run59.tgz run59 && rm -rf run59
