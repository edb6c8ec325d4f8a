# Run 194 (session 34; written before the run): the anchor check on by default (46bd575) on the
# GPU: every GPU test, then its cost to issue 4's goals: `adaptive_bench stationary` and
# `two-phase` with --check-anchor=1 (a) and =0 (b), in ABBA order (then AB while time allows).
# The check adds one non-streamed batch (about 1.8x a streamed one at n*) per derivation whose
# visits are made: about 0.2-0.5 % of a 400-batch run with one or two derivations.
# Criterion: the check stays on unless (1) a GPU test fails, or (2) over the pairs its mean
# stationary paired ratio (the six rows' mean) is below the runs without it by more than 0.01,
# or its two-phase ratio to the per-phase best is, on the mean over the pairs.
#   bash docs/evidence/run194/run.sh
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run194 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
i=0
for v in 1 0 0 1 1 0; do
  i=$((i + 1))
  [ $SECONDS -gt 430 ] && break
  for s in stationary two-phase; do
    timeout $((590 - SECONDS)) .device/bin/adaptive_bench $s --check-anchor=$v \
      > $R/$s-$i-check$v.txt 2>&1
    echo "$s $i check=$v rc=$? ${SECONDS}s"
  done
done
tar -C $OUT -czf $OUT/run194.tgz run194 && rm -rf $R
