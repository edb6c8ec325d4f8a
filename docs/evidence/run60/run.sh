# Run 60: GPU tests of 726ebc1 (the final review's refactor of Plan and the switch tests).
cd .device && . ./env.sh && cd .. && R=$OUT/run60 && mkdir -p $R && nvidia-smi > $R/gpu.txt
timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$?"; cat $R/gpu-tests.txt
cd $OUT && tar czf run60.tgz run60 && rm -rf run60
