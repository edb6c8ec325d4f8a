# Every committed adaptive-run trace with settings (runs 189-235) replayed through the controller
# on the CPU (bench/trace_replay), with the options given (--set=KEY=VALUE ...).
#   bash docs/evidence/session42/replay_all.sh [BUILD_DIR] [--set=KEY=VALUE ...] [--list=0.10]
set -u
B=${1:-build/release}/bench/trace_replay
shift || true
T=$(mktemp -d)
for t in docs/evidence/run*/trace-*.csv.gz; do
  s=${t/trace-/sweep-}
  [ -f "$s" ] || continue
  run=$(echo "$t" | sed 's|.*/run\([0-9]*\)/.*|\1|')
  zcat "$s" | head -2 | grep -q 'settings' || { [ "${t#*run189}" != "$t" ] || continue; }
  echo "== $(echo "$t" | cut -d/ -f3)-$(basename "$t" .csv.gz | sed 's/trace-//')"
  zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
  "$B" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml "$@" 2>&1
done
rm -rf "$T"
