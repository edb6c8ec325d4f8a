# Run 78 (session 13): calibrate with the add-scalar sweep timed held against unheld, six pairs
# alternating, on the bundle of 5f3463b (held calibration, reverted in a65d13a after run 77).
cd .device && . ./env.sh && cd .. && R=$OUT/run78 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3 4 5 6; do
  for v in held unheld; do
    f=""; [ $v = unheld ] && f="--no-held-sweep"
    .device/bin/streampipe calibrate --output=$R/h100-$v-$k.toml $f > $R/calibrate-$v-$k.txt 2>&1
    echo "$v $k rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$v-$k.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$v-$k.txt) us, left out $(grep -c 'left out' $R/calibrate-$v-$k.txt) ${SECONDS}s"
    sed -n '/add-scalar sweep/,/fit:/p' $R/calibrate-$v-$k.txt | sed -n '2,8p' | awk '{printf " %s:%s/%s", $1, $2, ($5==""?"-":$5)} END {print ""}'
  done
done
cd $OUT && tar czf run78.tgz run78 && rm -rf run78
