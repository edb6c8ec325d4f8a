# Every committed adaptive-run trace (runs 189-231: sweeps with --adaptive-trace) replayed
# through the controller on the CPU (bench/trace_replay): the calibrated prediction with
# adaptive.cap_slow_visits (the options now) and without it, on the very batches each sweep ran.
#   bash docs/evidence/session41/replay_traces.sh [BUILD_DIR] [--set=KEY=VALUE ...] [--list=0.10]
# Tallied by docs/evidence/session41/tally.py. replay-traces.txt: with --list=0.10. Runs up to 231
# (run 233's sweeps are scored by docs/evidence/run233/criteria.sh); runs 97-98 and 175-176 are
# left out: their sweeps record no settings (run 189's, also without, ran the defaults).
set -u
B=${1:-build/release}/bench/trace_replay
shift || true
T=$(mktemp -d)
for t in docs/evidence/run*/trace-*.csv.gz; do
  s=${t/trace-/sweep-}
  [ -f "$s" ] || continue
  run=$(echo "$t" | sed 's|.*/run\([0-9]*\)/.*|\1|')
  [ "$run" -le 231 ] || continue
  zcat "$s" | head -2 | grep -q 'settings' || { [ "${t#*run189}" != "$t" ] || continue; }
  echo "== $(echo "$t" | cut -d/ -f3)-$(basename "$t" .csv.gz | sed 's/trace-//')"
  zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
  "$B" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml "$@" 2>&1
done
rm -rf "$T"
