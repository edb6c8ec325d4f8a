#!/usr/bin/env bash
# ctest plot_script: bench/plot.py on the sample sweep CSV writes its figures (PNG files), with
# a batch's timeline from the sample trace (test/core/data/trace_sample.json, run 34's
# depth-first batch at n = 8), and on a bad CSV fails naming the file's own line (blank lines
# counted, as `sweep --from` counts them).
#   plot_test.sh ROOT
# Skipped (exit 77) where no python3 here has matplotlib (scripts/setup installs it).
set -u
root="$1"
py=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" > /dev/null && "$candidate" -c 'import matplotlib' 2> /dev/null; then
    py="$candidate"
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with matplotlib (scripts/setup installs python3-matplotlib)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "FAIL: $*" >&2
  fails=$((fails + 1))
}
sample="$root/test/core/data/sweep_sample.csv"

# The sample: three figures, each a PNG (measured against predicted, chosen against best, the
# timeline).
if ! "$py" "$root/bench/plot.py" "$sample" --out "$tmp/fig" \
     --trace "$root/test/core/data/trace_sample.json" > "$tmp/out.txt" 2>&1; then
  fail "plot.py on the sample: $(cat "$tmp/out.txt")"
fi
[ -f "$tmp/fig/timeline_trace_sample.png" ] || fail "no timeline_trace_sample.png"
# A trace that is no trace is named.
echo '{"traceEvents": []}' > "$tmp/empty_trace.json"
if "$py" "$root/bench/plot.py" "$sample" --out "$tmp/t" --trace "$tmp/empty_trace.json" \
     > "$tmp/t.txt" 2>&1; then
  fail "plot.py accepted a trace with no events"
fi
grep -q "empty_trace.json: no copy or kernel events" "$tmp/t.txt" ||
  fail "empty trace: $(cat "$tmp/t.txt")"
pngs=0
for f in "$tmp"/fig/*.png; do
  [ -f "$f" ] || continue
  if [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    pngs=$((pngs + 1))
  else
    fail "$f is not a PNG"
  fi
done
[ "$pngs" -ge 3 ] || fail "expected at least 3 PNG figures, found $pngs"

# A bad value on the file's line 6, after a blank line 3.
awk -F, -v OFS=, 'NR==3{print ""} NR==5{$8="abc"}1' "$sample" > "$tmp/bad.csv"
if "$py" "$root/bench/plot.py" "$tmp/bad.csv" --out "$tmp/bad" > "$tmp/bad.txt" 2>&1; then
  fail "plot.py accepted a CSV with median_ms 'abc'"
fi
grep -q "bad.csv: line 6, column 'median_ms': 'abc' is not a number" "$tmp/bad.txt" ||
  fail "plot.py's message does not name line 6: $(cat "$tmp/bad.txt")"

# An empty file.
: > "$tmp/empty.csv"
if "$py" "$root/bench/plot.py" "$tmp/empty.csv" --out "$tmp/e" > "$tmp/e.txt" 2>&1; then
  fail "plot.py accepted an empty file"
fi
grep -q "empty.csv: empty file, no header" "$tmp/e.txt" || fail "empty file: $(cat "$tmp/e.txt")"

if [ "$fails" -gt 0 ]; then
  echo "$fails check(s) failed" >&2
  exit 1
fi
echo "plot.py: the sample plotted ($pngs PNGs), a bad line and an empty file named"
