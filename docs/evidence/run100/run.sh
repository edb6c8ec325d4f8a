# Run 100 (session 17, after the review): the final code (96bccfb: the lower median, with n*'s
# time taken by the same estimator over as many samples in the switch test and the fit, and a
# visited n's residual scaled likewise). GPU tests; A/B on one lease, alternating it (a) with
# 453e79d (b, the controller before), run 98's profile; adaptive_bench stationary.
# `bash docs/evidence/run100/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run100 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 200 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
cp docs/evidence/run98/h100.toml $R/h100.toml
for k in a1 b1 a2 b2; do
  case $k in a*) bin=streampipe;; b*) bin=streampipe-453e79d;; esac
  timeout 130 .device/bin/$bin sweep --grid=all --issue=streams,graph --profile=$R/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$k.log
done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run100.tgz run100
