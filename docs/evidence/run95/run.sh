# Run 95 (session 16): the calibrated prediction at n* from n*'s kept samples (up to 32) instead of
# the level learned over the cooldown's 8 batches. GPU tests; a calibration; A/B on one lease,
# alternating the new code (a: .device/bin/streampipe) and c2df56e (b: streampipe-c2df56e, the
# code before, built from a worktree of c2df56e with the release preset), one profile.
# Call 1: `bash docs/evidence/run95/run.sh 1` (tests, calibrate, a1, b1); call 2: `... 2` (a2, b2).
cd .device && . ./env.sh && cd .. && R=$OUT/run95 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
if [ "$1" = 1 ]; then
  timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
  .device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
  echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us, $(grep '^  c0' $R/calibrate.txt) ${SECONDS}s"
  ks="a1 b1"
else
  cp $PROFILE $R/h100.toml; ks="a2 b2"
fi
for k in $ks; do
  case $k in a*) bin=streampipe;; b*) bin=streampipe-c2df56e;; esac
  timeout 140 .device/bin/$bin sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$k.log; grep "Adaptive runs" $R/sweep-$k.log
done
cd $OUT && tar czf run95-$1.tgz run95 && rm -rf run95
