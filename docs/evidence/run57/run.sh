# Run 57: the sweep A/B of run 56 again (this code and 53bb625, streampipe_old), another lease.
cd .device && . ./env.sh && cd .. && R=$OUT/run57 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
c=$(awk '$1=="c"{print $2}' $R/calibrate.txt); d=$(grep -o 'sweep: [0-9.]*' $R/calibrate.txt | awk '{print $2}')
echo "c=$c duplex=$d"
for k in new-a old-a new-b old-b; do
  b=.device/bin/streampipe; case $k in old*) b=.device/bin/streampipe_old;; esac
  /usr/bin/time -f "%e s" $b sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$? ${SECONDS}s"; grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
cd $OUT && tar czf run57.tgz run57 && rm -rf run57
