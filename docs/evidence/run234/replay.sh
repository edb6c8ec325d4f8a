# Run 234's replay criterion (run.sh): both sweeps through bench/trace_replay (CPU).
#   bash docs/evidence/run234/replay.sh [BUILD_DIR]
set -u
B=${1:-build/release}/bench/trace_replay
T=$(mktemp -d)
for v in m1 m3; do
  echo "== $v"
  zcat docs/evidence/run234/sweep-$v.csv.gz > "$T/s.csv"
  zcat docs/evidence/run234/trace-$v.csv.gz > "$T/t.csv"
  "$B" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml 2>&1
  echo "rc=$?"
done
rm -rf "$T"
