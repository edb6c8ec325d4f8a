# Run 98 (session 17): a time from an n's samples is their lower median (LowMedian; a visit's
# two samples: the faster). GPU tests; a calibration; A/B on one lease, alternating the new code
# (a: .device/bin/streampipe) and 453e79d (b: streampipe-453e79d, the code before, built from a
# worktree of 453e79d with the release preset), one profile, every adaptive batch traced.
# Call 1: `bash docs/evidence/run98/run.sh 1` (tests, calibrate, a1, b1); call 2:
# `PROFILE=docs/evidence/run98/h100.toml bash docs/evidence/run98/run.sh 2` (a2, b2, a3, b3).
cd .device && . ./env.sh && cd .. && R=/tmp/run98 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
if [ "$1" = 1 ]; then
  timeout 200 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
  .device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1
  echo "calibrate rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate.txt), c $(awk '$1=="c"{print $2}' $R/calibrate.txt) us, $(grep '^  c0' $R/calibrate.txt) ${SECONDS}s"
  ks="a1 b1"
else
  cp $PROFILE $R/h100.toml; ks="a2 b2 a3 b3"
fi
for k in $ks; do
  case $k in a*) bin=streampipe;; b*) bin=streampipe-453e79d;; esac
  timeout 140 .device/bin/$bin sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md --adaptive-trace=$R/trace-$k.csv 2> $R/sweep-$k.log; echo "sweep $k ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$k.log; grep "Adaptive runs" $R/sweep-$k.log
done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run98-$1.tgz run98
