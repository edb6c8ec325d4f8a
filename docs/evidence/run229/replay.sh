# controller_replay with and without the second visit over the symmetric sweeps of runs 217, 223
# and 226 (10 seeds, slow stretches: 5 % of batches 12 % slow in runs of 3; run on while the
# calibration owes visits, up to 600 batches, as the sweep does). CPU only.
#   bash docs/evidence/run229/replay.sh [BUILD_DIR]   (default build/release)
set -eu
B=${1:-build/release}/bench/controller_replay
T=$(mktemp -d)
for f in docs/evidence/run217/sweep-[0-9].csv.gz docs/evidence/run223/sweep-[0-9].csv.gz \
         docs/evidence/run226/sweep-[0-9].csv.gz; do
  name=$(echo "$f" | cut -d/ -f3)-$(basename "$f" .csv.gz)
  zcat "$f" > "$T/$name.csv"
  for sv in 0 40; do
    printf '%s second-visit-batches=%s: ' "$name" "$sv"
    "$B" "$T/$name.csv" docs/evidence/run117/h100.toml --seeds=10 --max-batches=600 \
      --slow=0.05:0.12 --slow-run=3 --second-visit-batches=$sv 2>&1 |
      grep -E '^(graph|streams)|prediction error|explored' |
      sed 's/configurations whose mean is //; s/(median over seeds)//; s/prediction error://' |
      tr '\n' '|' | tr -s ' '
    echo
  done
done
rm -rf "$T"
