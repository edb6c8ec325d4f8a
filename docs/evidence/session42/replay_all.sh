# Every committed adaptive-run trace with settings (runs 189 on) replayed through the controller
# on the CPU (bench/trace_replay), with the options given (--set=KEY=VALUE ...).
#   bash docs/evidence/session42/replay_all.sh [BUILD_DIR] [--profile=PATH] [--set=KEY=VALUE ...] [--list=0.10]
# Session 46: trace_replay refuses a profile other than the one a sweep's rows name, so the
# sweeps measured with another profile than --profile (default: run 117's, the H100's; run
# 257's h200-1.toml for runs 257-259's H200 sweeps) are left out, each named on stderr; so are,
# with another --profile, the sweeps whose rows name none (before session 37: the H100's) and
# those that calibrated themselves (profile=calibrated: that profile was not kept).
set -u
B=${1:-build/release}/bench/trace_replay
shift || true
H100=docs/evidence/run117/h100.toml
P=$H100
args=()
for a in "$@"; do
  case "$a" in --profile=*) P=${a#--profile=} ;; *) args+=("$a") ;; esac
done
T=$(mktemp -d)
for t in docs/evidence/run*/trace-*.csv.gz; do
  s=${t/trace-/sweep-}
  [ -f "$s" ] || continue
  zcat "$s" | head -2 | grep -q 'settings' || { [ "${t#*run189}" != "$t" ] || continue; }
  name="$(echo "$t" | cut -d/ -f3)-$(basename "$t" .csv.gz | sed 's/trace-//')"
  named=$(zcat "$s" | sed -n 2p | grep -o 'profile=[^ ,]*' | head -1)
  if [ "$P" -ef "$H100" ] || [ "$P" = "$H100" ]; then :
  elif [ -z "$named" ]; then
    echo "replay_all: $name left out: its rows name no profile (before session 37: the H100's)" >&2
    continue
  elif [ "$named" = profile=calibrated ]; then
    echo "replay_all: $name left out: the sweep calibrated itself (its profile was not kept)" >&2
    continue
  fi
  zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
  out=$("$B" "$T/s.csv" "$T/t.csv" "$P" "${args[@]}" 2>&1)
  if [ $? = 65 ] && echo "$out" | grep -q "was measured with the profile"; then
    echo "replay_all: $name left out: measured with another profile than $P" >&2
    continue
  fi
  echo "== $name"
  echo "$out"
done
rm -rf "$T"
