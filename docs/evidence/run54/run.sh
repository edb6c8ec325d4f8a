cd .device && . ./env.sh && cd .. && R=$OUT/run54 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
c=$(awk '$1=="c"{print $2}' $R/calibrate.txt); d=$(grep -o 'sweep: [0-9.]*' $R/calibrate.txt | awk '{print $2}')
echo "c=$c duplex=$d"
for k in a b; do /usr/bin/time -f "%e s" .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md $( [ $k = a ] && echo --trace-dir=$R/traces-a ) 2> $R/sweep-$k.log; echo "$k rc=$?"; grep "calibrated median" $R/sweep-$k.log; tail -1 $R/sweep-$k.log; done
cd $OUT && tar czf run54.tgz run54 && rm -rf run54
