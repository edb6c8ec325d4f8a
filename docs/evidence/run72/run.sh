# Run 72 (session 11): the final-review mends (repeatability rows as ModelAccuracy, calibrate's
# misfit from its table only): GPU tests, calibrate once, a quick sweep with its summary.
cd .device && . ./env.sh && cd .. && R=$OUT/run72 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us ${SECONDS}s"
timeout 200 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-quick.csv --summary=$R/summary-quick.md 2> $R/sweep-quick.log; echo "quick rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself" $R/sweep-quick.log; sed -n '/### Repeatability/,$p' $R/summary-quick.md
cd $OUT && tar czf run72.tgz run72 && rm -rf run72
