# Run 79 (session 13): the review mends (held batches apart from the regime bookkeeping, a gate
# that opened itself reported as held = false, the held timing test in every order). GPU tests;
# a quick sweep with a fresh calibration.
cd .device && . ./env.sh && cd .. && R=$OUT/run79 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h -E "Held|Gate" $R/gpu-tests/*.log | grep -E "OK|FAILED" | sort -u
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us ${SECONDS}s"
timeout 90 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-quick.csv --summary=$R/summary-quick.md 2> $R/sweep-quick.log; echo "sweep quick rc=$? ${SECONDS}s"
grep -E "calibrated median|device time|the measurement itself" $R/sweep-quick.log
sed -n '/^Device time/,$p' $R/sweep-quick.log
cd $OUT && tar czf run79.tgz run79 && rm -rf run79
# Then, on the same lease (one call, kept in full/):
#   .device/bin/streampipe calibrate --output=full/h100.toml
#   .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=full/h100.toml \
#     --output=full/sweep.csv --summary=full/summary.md 2> full/sweep.log
