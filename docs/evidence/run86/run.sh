# Run 86 (session 14): the final-review mends (calibrate's c0 bookkeeping, pipeline includes).
# GPU tests; two calibrations; the quick sweep.
cd .device && . ./env.sh && cd .. && R=$OUT/run86 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h -E "Calibration|Held|Gate" $R/gpu-tests/*.log | grep -E "OK|FAILED" | sort -u
for i in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-$i.toml > $R/calibrate-$i.txt 2>&1
  echo "calibrate $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$i.txt) us, $(grep '^  c0' $R/calibrate-$i.txt) ${SECONDS}s"
done
.device/bin/streampipe calibrate --no-idle-overhead --quick > /dev/null 2> $R/calibrate-noc0-quick.txt; echo "calibrate --no-idle-overhead --quick rc=$?: $(grep '^  c0' $R/calibrate-noc0-quick.txt)"
timeout 90 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$R/h100-1.toml --output=$R/sweep-quick.csv --summary=$R/summary-quick.md 2> $R/sweep-quick.log; echo "sweep quick rc=$? ${SECONDS}s"
grep -E "calibrated median|device time|the measurement itself" $R/sweep-quick.log
cd $OUT && tar czf run86.tgz run86 && rm -rf run86
# Then, on the same lease (adaptive-repeat-same-lease.txt, calibrate-3.txt):
#   for i in 1 2 3 4; do .device/bin/adaptive_gpu_test --gtest_filter='*KernelWhoseCostChangesMidStream*'; done
#   .device/bin/streampipe calibrate
# and on the next lease, the same test from the bundle of 7062c11 (before this session's
# changes) and of 64028c3 alternating (adaptive-ab-next-lease.txt): .device/ab/bin/adaptive_old,
# adaptive_new, five times each.
