# Run 88 (session 15): the code of 8be760c again, on the next lease (run 87's was busy: the
# measurement itself moved over 10 % at 197 of 984 points). Two calibrations; two full sweeps
# (one per profile), the first with the trace of one batch per issue order.
cd .device && . ./env.sh && cd .. && R=$OUT/run88 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for i in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-$i.toml > $R/calibrate-$i.txt 2>&1
  echo "calibrate $i rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$i.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$i.txt) us, $(grep '^  c0' $R/calibrate-$i.txt) ${SECONDS}s"
done
for i in 1 2; do
  t=; [ $i = 1 ] && t=--trace-dir=$R/traces
  timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-$i.toml --output=$R/sweep-$i.csv --summary=$R/summary-$i.md $t 2> $R/sweep-$i.log; echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|device time|the measurement itself" $R/sweep-$i.log
done
cd $OUT && tar czf run88.tgz run88 && rm -rf run88
