# Run 108 (session 19): the issue line through the origin where its free intercept is negative
# (a: .device/bin/streampipe, 60aae89) against the code before it (b: streampipe-4ba0134) on one
# lease, alternating, with run 98's profile; part 1 first runs every GPU test on a.
#   part 1: GPU tests, sweeps a1, b1;  part 2: sweeps a2, b2, a3, b3
# `bash docs/evidence/run108/run.sh 1`, then `... run.sh 2`.
part=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run108-$part && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
sweep() {
  case $1 in a*) bin=streampipe;; b*) bin=streampipe-4ba0134;; esac
  timeout 150 .device/bin/$bin sweep --grid=all --issue=streams,graph --profile=docs/evidence/run98/h100.toml \
    --output=$R/sweep-$1.csv --summary=$R/summary-$1.md 2> $R/sweep-$1.log; echo "sweep $1 ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$1.log
}
if [ "$part" = 1 ]; then
  timeout 220 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
  rm -rf $R/gpu-tests
  sweep a1; sweep b1
else
  sweep a2; sweep b2; sweep a3; sweep b3
fi
gzip $R/*.csv; tar -C /tmp -czf $OUT/run108-$part.tgz run108-$part
