# Run 192 (session 34; written before the run, after runs 190-191 were read): the anchor check
# (AdaptiveOptions::check_anchor, `streampipe sweep --check-anchor`): once a derivation's visits
# are made, one more non-streamed batch; the faster of the two anchors the calibrated prediction
# at n = 1 and below the visited n. Predictions only, so every sweep is an exact pair: the CSV's
# pred_calibrated (with the check) against the log's "first anchor alone" (without), on the same
# batches. Why: over runs 187-191 (40 sweep-modes of the current code) an offline bound, the slow
# anchors replaced by the rounds' time at n = 1 and the correction interpolated to the smallest
# visited n, cut the points over 10 % from 151 to 82 (run192/offline-bound.txt); the check is a
# second draw, not the rounds, so the gain on the card is the question.
# Criterion (pair.py prints each part), over every sweep-mode of this run:
#   1. fewer points over 10 % with the check than with the first anchor alone, in total;
#   2. in no sweep-mode a larger max error with the check.
# Met: adaptive.check_anchor goes on by default (a config key). Failed: it stays off.
# One bundle of this tree (scripts/device-bundle --pack --only=streampipe); one whole-grid sweep
# (the slow anchors of run 191 were there), then symmetric sweeps while time allows.
#   bash docs/evidence/run192/run.sh
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run192 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
timeout 240 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P --check-anchor \
  --output=$R/sweep-all.csv --summary=$R/summary-all.md 2> $R/sweep-all.log
echo "sweep all rc=$? ${SECONDS}s"
i=0
while [ $SECONDS -lt 500 ]; do
  i=$((i + 1))
  timeout $((585 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --check-anchor --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run192.tgz run192 && rm -rf $R
