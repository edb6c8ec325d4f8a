# Run 101 (session 17, final review): the final code after the review's mends (bench helpers
# shared by ramp and switch; n*'s time computed once per calibration). Every GPU test; issue
# 4's adaptive benchmarks on the final controller (run 99 ran a217788); ramp and switch, the
# two modes the mend touched. `bash docs/evidence/run101/run.sh`
cd .device && . ./env.sh && cd .. && R=$OUT/run101 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 200 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 200 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all.txt 2>&1; echo "adaptive_bench all rc=$? ${SECONDS}s"; cat $R/adaptive-all.txt
timeout 150 .device/bin/adaptive_bench ramp --ramp-repeats=7 > $R/ramp.txt 2>&1; echo "ramp rc=$? ${SECONDS}s"; cat $R/ramp.txt
for m in streams graph; do timeout 60 .device/bin/adaptive_bench switch --issue=$m --ramp-repeats=7 > $R/switch-$m.txt 2>&1; echo "switch $m rc=$? ${SECONDS}s"; cat $R/switch-$m.txt; done
rm -rf $R/gpu-tests; cd $OUT && tar czf run101.tgz run101 && rm -rf run101
