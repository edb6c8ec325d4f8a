# Run 80 (session 13): the final-review mends (refactors, output unchanged). GPU tests; a quick
# sweep whose summary tables the refactor touched.
cd .device && . ./env.sh && cd .. && R=$OUT/run80 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h -E "Held|Gate" $R/gpu-tests/*.log | grep -E "OK|FAILED" | sort -u
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us ${SECONDS}s"
timeout 90 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-quick.csv --summary=$R/summary-quick.md 2> $R/sweep-quick.log; echo "sweep quick rc=$? ${SECONDS}s"
grep -E "calibrated median|device time|the measurement itself" $R/sweep-quick.log
sed -n '/^Repeatability/,$p' $R/sweep-quick.log
cd $OUT && tar czf run80.tgz run80 && rm -rf run80
