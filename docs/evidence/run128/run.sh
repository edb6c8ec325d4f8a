# Run 128 (session 21): run 127 in the other order (b first in each pair), to see whether its gap in points over 10 % follows the binary or the order. A/B of the final controller (a, .device/bin/streampipe, the shape test as
# the time moved between the parts) against 96499de's streampipe (b, .device/bin/streampipe-b,
# built from a worktree of 96499de: every drift re-derives from the model) on the matrix-product
# and histogram grids, where the tiny batches are: five sweeps a side, alternating.
# `bash docs/evidence/run128/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run128 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3 4 5; do
  for s in b a; do
    bin=.device/bin/streampipe; [ $s = b ] && bin=.device/bin/streampipe-b
    timeout 150 $bin sweep --grid=matmul,histogram --issue=streams,graph --profile=docs/evidence/run117/h100.toml \
      --output=$R/sweep-$s$k.csv --summary=$R/summary-$s$k.md 2> $R/sweep-$s$k.log; echo "sweep $s$k rc=$? ${SECONDS}s"
    grep -E "calibrated median" $R/sweep-$s$k.log
  done
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run128.tgz run128
