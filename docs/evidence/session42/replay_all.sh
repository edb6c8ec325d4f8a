# Every committed adaptive-run trace with settings (runs 189-235) replayed through the controller
# on the CPU (bench/trace_replay), with the options given (--set=KEY=VALUE ...).
#   bash docs/evidence/session42/replay_all.sh [BUILD_DIR] [--profile=PATH] [--set=KEY=VALUE ...] [--list=0.10]
# Session 46: trace_replay now refuses a profile other than the one a sweep's rows name, so the
# sweeps measured with another profile than --profile (default: run 117's, the H100's; run
# 257's h200-1.toml for runs 257-258's H200 sweeps) are left out, each named on stderr; so are,
# with another --profile, the sweeps whose rows name none (before session 37: the H100's).
set -u
B=${1:-build/release}/bench/trace_replay
shift || true
P=docs/evidence/run117/h100.toml
case "${1:-}" in --profile=*) P=${1#--profile=}; shift ;; esac
T=$(mktemp -d)
for t in docs/evidence/run*/trace-*.csv.gz; do
  s=${t/trace-/sweep-}
  [ -f "$s" ] || continue
  run=$(echo "$t" | sed 's|.*/run\([0-9]*\)/.*|\1|')
  zcat "$s" | head -2 | grep -q 'settings' || { [ "${t#*run189}" != "$t" ] || continue; }
  name="$(echo "$t" | cut -d/ -f3)-$(basename "$t" .csv.gz | sed 's/trace-//')"
  if [ "$P" != docs/evidence/run117/h100.toml ] && ! zcat "$s" | sed -n 2p | grep -q 'profile=fnv'; then
    echo "replay_all: $name left out: its rows name no profile (run 117's, the H100's)" >&2
    continue
  fi
  zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
  out=$("$B" "$T/s.csv" "$T/t.csv" "$P" "$@" 2>&1)
  if [ $? = 65 ] && echo "$out" | grep -q "was measured with the profile"; then
    echo "replay_all: $name left out: measured with another profile than $P" >&2
    continue
  fi
  echo "== $name"
  echo "$out"
done
rm -rf "$T"
