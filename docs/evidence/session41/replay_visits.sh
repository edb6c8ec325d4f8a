# controller_replay (CPU) on four symmetric sweeps (runs 229, 226, 217): ideas for a visit's
# few batches that session 41 replayed and did not build.
#   1. the adaptive run longer (600 batches) and neighbours revisited every 100 or 60 batches;
#   2. visits of one batch each (samples_per_candidate = 1), two visits 20 or 40 batches apart
#      (second_visit_batches), against the default and the second visit of two batches.
#   bash docs/evidence/session41/replay_visits.sh [BUILD_DIR]
# replay-visits.txt was made with cf635ad's controller (adaptive.cap_slow_visits on); 95214f1's
# (the same ideas, the cap not yet written) gave the same picture.
set -eu
B=${1:-build/release}/bench/controller_replay
T=$(mktemp -d)
P=docs/evidence/run117/h100.toml
echo "# 1. longer runs, revisits (6 seeds)"
for f in docs/evidence/run229/sweep-1A1.csv.gz docs/evidence/run229/sweep-2A4.csv.gz \
         docs/evidence/run226/sweep-1.csv.gz; do
  n=$(echo "$f" | cut -d/ -f3)-$(basename "$f" .csv.gz); zcat "$f" > "$T/$n.csv"
  for v in "--batches=150 --max-batches=600" "--batches=600" "--batches=600 --revisit-batches=100" \
           "--batches=300 --revisit-batches=60"; do
    for sl in "--slow=0.05:0.12 --slow-run=3" "--slow=0.05:0.12 --slow-run=12"; do
      printf '%s | %s | %s: ' "$n" "$v" "$sl"
      # shellcheck disable=SC2086
      "$B" "$T/$n.csv" $P --seeds=6 $v $sl 2>&1 | grep -E '^(graph|streams)|prediction error|explored' |
        sed 's/configurations whose mean is //; s/(median over seeds)//; s/prediction error://' |
        tr '\n' '|' | tr -s ' '
      echo
    done
  done
done
echo "# 2. one-batch visits twice (10 seeds)"
for f in docs/evidence/run229/sweep-1A1.csv.gz docs/evidence/run229/sweep-2A4.csv.gz \
         docs/evidence/run226/sweep-1.csv.gz docs/evidence/run217/sweep-1.csv.gz; do
  n=$(echo "$f" | cut -d/ -f3)-$(basename "$f" .csv.gz); zcat "$f" > "$T/$n.csv"
  for v in "" "--second-visit-batches=40" "--samples-per-candidate=1 --second-visit-batches=20" \
           "--samples-per-candidate=1 --second-visit-batches=40"; do
    printf '%s | %s: ' "$n" "$v"
    # shellcheck disable=SC2086
    "$B" "$T/$n.csv" $P --seeds=10 --max-batches=600 --slow=0.05:0.12 --slow-run=3 $v 2>&1 |
      grep -E '^(graph|streams)|prediction error|explored' |
      sed 's/configurations whose mean is //; s/(median over seeds)//; s/prediction error://' |
      tr '\n' '|' | tr -s ' '
    echo
  done
done
rm -rf "$T"
