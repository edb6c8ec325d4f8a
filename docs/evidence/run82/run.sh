# Run 82 (session 14): the committed code of run 81's change (d5f9798 and later). GPU tests;
# calibrations with and without c0, alternating; a full sweep with each (the profile of the
# first calibration of its kind that fits within 10 %, else the better one).
cd .device && . ./env.sh && cd .. && R=$OUT/run82 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
misfit() { grep -o 'largest misfit [0-9.]*' $1 | awk '{print $3}'; }
for i in 1 2; do
  .device/bin/streampipe calibrate --output=$R/h100-c0-$i.toml > $R/calibrate-c0-$i.txt 2>&1
  echo "calibrate c0 $i rc=$?: misfit $(misfit $R/calibrate-c0-$i.txt) %, c $(awk '$1=="c"{print $2}' $R/calibrate-c0-$i.txt) us, $(grep '^  c0' $R/calibrate-c0-$i.txt) ${SECONDS}s"
  .device/bin/streampipe calibrate --no-idle-overhead --output=$R/h100-noc0-$i.toml > $R/calibrate-noc0-$i.txt 2>&1
  echo "calibrate no c0 $i rc=$?: misfit $(misfit $R/calibrate-noc0-$i.txt) %, c $(awk '$1=="c"{print $2}' $R/calibrate-noc0-$i.txt) us ${SECONDS}s"
done
grep -h "held n ms" $R/calibrate-c0-*.txt
for p in c0 noc0; do
  a=$(misfit $R/calibrate-$p-1.txt); b=$(misfit $R/calibrate-$p-2.txt)
  pick=$(awk -v a="$a" -v b="$b" 'BEGIN{print (a<=10 || a<=b) ? 1 : 2}')
  echo "$p: profile $pick" | tee $R/profile-$p.txt
  timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$R/h100-$p-$pick.toml --output=$R/sweep-$p.csv --summary=$R/summary-$p.md 2> $R/sweep-$p.log; echo "sweep $p rc=$? ${SECONDS}s"
  grep -E "calibrated median|device time|the measurement itself" $R/sweep-$p.log
done
cd $OUT && tar czf run82.tgz run82 && rm -rf run82
