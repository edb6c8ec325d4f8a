# Run 96 (session 16, final review): the final code (n*'s prediction from its samples, after the
# review's mends). Every GPU test; the adaptive benchmark the controller change touches
# (stationary: adaptive against the best fixed n, issue 4's goal >= 0.98); the ramp benchmark.
cd .device && . ./env.sh && cd .. && R=$OUT/run96 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 200 .device/bin/adaptive_bench stationary --batches=400 > $R/stationary.txt 2>&1; echo "stationary rc=$? ${SECONDS}s"; cat $R/stationary.txt
timeout 150 .device/bin/adaptive_bench ramp --ramp-repeats=7 > $R/ramp.txt 2>&1; echo "ramp rc=$? ${SECONDS}s"; cat $R/ramp.txt
