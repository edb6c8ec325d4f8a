# Run 61: the full session-9 code (726ebc1 = HEAD's code) on one lease: stationary adaptive_bench
# three times (with the paired column), then two full sweeps (streams and graph).
cd .device && . ./env.sh && cd .. && R=$OUT/run61 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
c=$(awk '$1=="c"{print $2}' $R/calibrate.txt); echo "c=$c ${SECONDS}s"
for k in 1 2 3; do
  timeout 60 .device/bin/adaptive_bench stationary --batches=400 > $R/stationary-$k.txt 2>&1; echo "stationary $k rc=$? ${SECONDS}s"
  tail -n +5 $R/stationary-$k.txt | cut -c1-80
done
for k in a b; do
  timeout 240 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$? ${SECONDS}s"
  grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
cd $OUT && tar czf run61.tgz run61 && rm -rf run61
