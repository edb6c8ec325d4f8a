# Run 81 (session 14): c0, the per-stream overhead beside an idle link, from held tiny
# sub-chunks. GPU tests; calibrations with and without c0, alternating; a full sweep with each
# profile on the same lease (the current model's device paths against held batches, and the
# calibrated prediction and adaptive choice that start from them).
cd .device && . ./env.sh && cd .. && R=$OUT/run81 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h -E "Calibration" $R/gpu-tests/*.log | grep -E "OK|FAILED" | sort -u
for i in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-c0-$i.toml > $R/calibrate-c0-$i.txt 2>&1
  echo "calibrate c0 $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-c0-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-c0-$i.txt) us, $(grep '^  c0' $R/calibrate-c0-$i.txt) ${SECONDS}s"
  .device/bin/streampipe calibrate --no-idle-overhead --output=$R/h100-noc0-$i.toml > $R/calibrate-noc0-$i.txt 2>&1
  echo "calibrate no c0 $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-noc0-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-noc0-$i.txt) us ${SECONDS}s"
done
grep -h "held n ms" $R/calibrate-c0-*.txt
for p in c0 noc0; do
  timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-$p-1.toml --output=$R/sweep-$p.csv --summary=$R/summary-$p.md 2> $R/sweep-$p.log; echo "sweep $p rc=$? ${SECONDS}s"
  grep -E "calibrated median|device time|the measurement itself" $R/sweep-$p.log
done
cd $OUT && tar czf run81.tgz run81 && rm -rf run81
