# Run 265 (session 47): adaptive.breadth_first_issue_share (the model's T5, off by default) in an
# A/B on one H200 (no H100 kind is lent this session): symmetric sweeps with run 257's profile,
# A = the default (0), B = --breadth-first-issue-share=0.333, in ABBA order on one lease.
# Criterion, written before the run:
#  1. every sweep exits 0; each trace replays to its own prediction within 0.1 % in both modes
#     (criteria.sh afterwards, on the CPU); B's rows record breadth-first-issue-share=0.333, A's
#     do not name it;
#  2. in each B sweep, the breadth-first intensity-3000 configuration's adaptive choice reaches
#     at least 0.98 of the best n's speed in both modes;
#  3. in each B sweep-mode: calibrated median error <= 3 %, mean choice >= 0.98 (as A's have
#     been in every H200 sweep). The maximum error and the worst choice are reported, A against
#     B, not judged (one lease, two sweeps each).
#   bash docs/evidence/run265/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run265 && mkdir -p $R && nvidia-smi > $R/gpu.txt
k=0
for arm in A B B A; do
  k=$((k + 1))
  flag=""; [ $arm = B ] && flag="--breadth-first-issue-share=0.333"
  timeout 140 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=docs/evidence/run257/h200-1.toml $flag --output=$R/sweep-$k$arm.csv \
    --summary=$R/summary-$k$arm.md --adaptive-trace=$R/trace-$k$arm.csv 2> $R/sweep-$k$arm.log
  echo "sweep $k$arm rc=$? ${SECONDS}s; rows naming the share: $(grep -c 'breadth-first-issue-share=0.333' $R/sweep-$k$arm.csv)"
  sed -n '/### Per issue mode/,/### Speed-ups/p' $R/summary-$k$arm.md | grep -E '^\| (calibrated|adaptive) '
  awk -F, 'NR > 1 && $5 == 3000 && $6 == "breadth-first" {print "   bf-3000", $36, "n=" $7, $8, "adaptive n=" $34}' $R/sweep-$k$arm.csv | head -16 > $R/bf3000-$k$arm.txt
done
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run265.tgz run265 && rm -rf $R
