# Run 55: the sweep A/B on one lease: this code (confirming visits outside the budget) and the
# code before it (53bb625, streampipe_old), alternating, one calibration for both.
cd .device && . ./env.sh && cd .. && R=$OUT/run55 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
c=$(awk '$1=="c"{print $2}' $R/calibrate.txt); d=$(grep -o 'sweep: [0-9.]*' $R/calibrate.txt | awk '{print $2}')
echo "c=$c duplex=$d"
for k in new-a old-a new-b old-b; do
  b=.device/bin/streampipe; case $k in old*) b=.device/bin/streampipe_old;; esac
  /usr/bin/time -f "%e s" $b sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "$k rc=$?"; grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log
done
cd $OUT && tar czf run55.tgz run55 && rm -rf run55
