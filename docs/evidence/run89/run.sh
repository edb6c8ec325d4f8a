# Run 89 (session 15): the sweep's adaptive-run check (an adaptive run whose own batches or
# non-streamed measurement disagree with the rounds before it by more than 10 % runs again, up
# to --adaptive-retries times). A/B on one lease, alternating: --adaptive-retries=2 (the
# default) and 0 (the sweep as before), twice each, with one profile.
cd .device && . ./env.sh && cd .. && R=$OUT/run89 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
.device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us, $(grep '^  c0' $R/calibrate.txt) ${SECONDS}s"
for k in a1 b1 a2 b2; do
  case $k in a*) r=2;; b*) r=0;; esac
  timeout 135 .device/bin/streampipe sweep --grid=all --issue=streams,graph --adaptive-retries=$r --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k (retries $r) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$k.log; grep "Adaptive runs" $R/sweep-$k.log
done
cd $OUT && tar czf run89.tgz run89 && rm -rf run89
