#!/usr/bin/env bash
# ctest trace_replay_run229: the batches one of run 229's symmetric sweeps traced on the H100
# (docs/evidence/run229, sweep 1A1: 36 configurations, both issue modes), replayed through the
# controller, are the batches it plans, its calibrated prediction without
# adaptive.cap_slow_visits is the sweep's to 0.1 % at every point (the sweep ran before the
# option), and the cap moves some points in each issue mode. Fails where a change to the
# controller moves a plan or an uncapped prediction of that run (then replay a newer trace
# here), or leaves the cap nothing to do there.
#   trace_replay_test.sh TRACE_REPLAY REPO_ROOT
set -u
tool="$1"
root="$2"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
zcat "$root/docs/evidence/run229/sweep-1A1.csv.gz" > "$t/s.csv" || exit 1
zcat "$root/docs/evidence/run229/trace-1A1.csv.gz" > "$t/t.csv" || exit 1
out=$("$tool" "$t/s.csv" "$t/t.csv" "$root/docs/evidence/run117/h100.toml")
rc=$?
echo "$out"
fails=0
[ "$rc" = 0 ] || { echo "FAIL: exit $rc"; fails=$((fails + 1)); }
echo "$out" | grep -q "^0 configurations replayed with .*; 0 not reproduced (or not in the CSV)$" ||
  { echo "FAIL: a configuration needed a fitted kernel half or was not reproduced"; fails=$((fails + 1)); }
for mode in graph streams; do
  line=$(echo "$out" | grep "^$mode: 18 configurations, 144 points")
  [ -n "$line" ] || { echo "FAIL: no $mode line of 18 configurations"; fails=$((fails + 1)); continue; }
  within=$(echo "$line" | sed -n 's/.*\/ \([0-9.]*\) % (uncapped)$/\1/p')
  awk -v w="$within" 'BEGIN { exit !(w != "" && w <= 0.1) }' ||
    { echo "FAIL: $mode: uncapped replay within $within % of the sweep's prediction (want <= 0.1)"; fails=$((fails + 1)); }
done
capped=$(echo "$out" | sed -n 's/.*(\([0-9]*\) points capped)$/\1/p')
[ "$(echo "$capped" | wc -w)" = 2 ] || { echo "FAIL: not two capped counts: '$capped'"; fails=$((fails + 1)); }
for k in $capped; do
  [ "$k" -gt 0 ] || { echo "FAIL: a mode with no point capped"; fails=$((fails + 1)); }
done
echo "$fails failed"
[ "$fails" = 0 ]
