# Run 183 (session 31): run 182's drift threshold of 0.2 (A) against the default 0.1 (B) again,
# and on issue 4's benchmarks. One bundle (the current code with --drift-threshold in the sweep
# and adaptive_bench). First `adaptive_bench all --batches=400` in ABBA order, then symmetric
# sweeps in ABBA order, as the call's time allows.
# Criteria, written before the run: (1) the sweeps: A has fewer calibrated points over 10 % than
# B over the pairs run; (2) the adaptive choice under 0.95 of the best no more often with A;
# (3) issue 4 with A: two-phase both goals in each A run, and the stationary and continuous
# figures no worse than B's on average. All three for a change of the default to be considered.
#   bash docs/evidence/run183/run.sh     # with .device.txz carried; everything in $OUT/run183.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run183 && mkdir -p $R && nvidia-smi > $R/gpu.txt
i=0
for k in a b b a; do
  i=$((i + 1))
  extra=""; [ $k = a ] && extra=--drift-threshold=0.2
  timeout 150 .device/bin/adaptive_bench all --batches=400 $extra > $R/adaptive-all-$i$k.txt 2>&1
  echo "adaptive_bench all $i$k rc=$? ${SECONDS}s"
  grep -E "per-phase best|faster" $R/adaptive-all-$i$k.txt
done
P=docs/evidence/run117/h100.toml
i=0
for k in a b b a; do
  i=$((i + 1))
  [ $SECONDS -gt 520 ] && break
  extra=""; [ $k = a ] && extra=--drift-threshold=0.2
  timeout $((590 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P $extra --output=$R/sweep-$i$k.csv --summary=$R/summary-$i$k.md 2> $R/sweep-$i$k.log
  echo "sweep $i$k rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$i$k.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run183.tgz run183 && rm -rf $R
