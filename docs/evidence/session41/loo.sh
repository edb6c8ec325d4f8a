# At the n an adaptive run visited (not n*): the visit's own time against the calibrated
# prediction with that n's samples left out (leave-one-out), and the rule "take the left-out
# prediction where the two differ by more than X". An experiment, not kept in the code: apply
# docs/evidence/session41/loo-experiment.diff to session 40's tree (17843c0), build
# controller_replay, then
#   bash docs/evidence/session41/loo.sh [BUILD_DIR]
# noise 0.0001: the sweep's medians alone (the model's structure); the slowed batches as in
# run 229's replay. Each configuration block: graph mode, then streams mode. CPU only.
set -eu
B=${1:-build/release}/bench/controller_replay
T=$(mktemp -d)
for f in docs/evidence/run229/sweep-1A1.csv.gz docs/evidence/run229/sweep-2A4.csv.gz \
         docs/evidence/run226/sweep-1.csv.gz docs/evidence/run217/sweep-1.csv.gz \
         docs/evidence/run223/sweep-1.csv.gz; do
  n=$(echo "$f" | cut -d/ -f3)-$(basename "$f" .csv.gz)
  zcat "$f" > "$T/$n.csv"
  for sl in "--noise=0.0001" "--slow=0.05:0.12 --slow-run=3"; do
    echo "== $n $sl"
    # shellcheck disable=SC2086
    "$B" "$T/$n.csv" docs/evidence/run117/h100.toml --seeds=10 --max-batches=600 $sl 2>&1 |
      grep -E "LOO|points over"
  done
done
rm -rf "$T"
