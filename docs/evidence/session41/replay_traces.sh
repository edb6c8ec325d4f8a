# Every committed adaptive-run trace (runs 189-231: sweeps with --adaptive-trace) replayed
# through the controller on the CPU (bench/trace_replay): the calibrated prediction with
# adaptive.cap_slow_visits (the options now) and without it, on the very batches each sweep ran.
#   bash docs/evidence/session41/replay_traces.sh [BUILD_DIR] [--set=KEY=VALUE ...]
# Tallied by docs/evidence/session41/tally.py.
set -u
B=${1:-build/release}/bench/trace_replay
shift || true
T=$(mktemp -d)
for t in docs/evidence/run*/trace-*.csv.gz; do
  s=${t/trace-/sweep-}
  [ -f "$s" ] || continue
  zcat "$s" | head -2 | grep -q 'settings' || { [ "${t#*run189}" != "$t" ] || continue; }
  echo "== $(echo "$t" | cut -d/ -f3)-$(basename "$t" .csv.gz | sed 's/trace-//')"
  zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
  "$B" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml "$@" 2>&1
done
rm -rf "$T"
