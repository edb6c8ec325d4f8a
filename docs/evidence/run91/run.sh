# Run 91 (session 15): the final code (6855288: the review's mends of the adaptive-run check --
# per-configuration consistency in Summarize, the log line). The pipeline GPU tests and a quick
# sweep in both issue modes with a fresh calibration; the sweep's summary must parse its own CSV.
cd .device && . ./env.sh && cd .. && R=$OUT/run91 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/pipeline_test > $R/pipeline-test.txt 2>&1; echo "pipeline_test rc=$? $(tail -1 $R/pipeline-test.txt) ${SECONDS}s"
.device/bin/adaptive_gpu_test > $R/adaptive-test.txt 2>&1; echo "adaptive_gpu_test rc=$? $(tail -1 $R/adaptive-test.txt) ${SECONDS}s"
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1; echo "calibrate rc=$? $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt) ${SECONDS}s"
timeout 120 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-quick.csv --summary=$R/summary-quick.md 2> $R/sweep-quick.log; echo "sweep quick rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself|Adaptive runs|adaptive run [0-9]" $R/sweep-quick.log | head -40
cd $OUT && tar czf run91.tgz run91 && rm -rf run91
