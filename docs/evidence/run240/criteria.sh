# Run 240's checks (run.sh), on the CPU, from the repository root: every sweep of runs 239 and
# 240 replayed with the carry off (as they ran: within 0.1 % of their own predictions) and on,
# compared by session 42's compare.py; and each sweep's goal row.
#   bash docs/evidence/run240/criteria.sh [BUILD_DIR] > docs/evidence/run240/criteria.txt
set -u
B=${1:-build/release}
T=$(mktemp -d)
for w in false true; do
  for s in docs/evidence/run239/sweep-*.csv.gz docs/evidence/run240/sweep-*.csv.gz; do
    t=${s/sweep-/trace-}
    run=$(echo "$s" | sed 's|.*/run\([0-9]*\)/.*|\1|')
    echo "== run$run-$(basename "$s" .csv.gz | sed 's/sweep-//')"
    zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
    "$B/bench/trace_replay" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml \
      --set=adaptive.carry_far_visits=$w --list=0.10 2>&1
  done > "$T/$w.txt"
done
echo "# replayed as they ran (carry off): the largest 'options now' distance per sweep-mode"
grep -E "^== |replayed within" "$T/false.txt" | sed -n 's/.*within \([0-9.]*\) % (options now).*/\1/p' | sort -n | tail -1
echo "# not reproduced, over all sweeps:"
grep -c "not reproduced: " "$T/false.txt"
echo "# the carry: without (A) against with (B)"
python3 docs/evidence/session42/compare.py "$T/false.txt" "$T/true.txt"
echo "# rows (docs/evidence/run196/rows.py)"
for s in docs/evidence/run239/sweep-*.csv.gz docs/evidence/run240/sweep-*.csv.gz; do
  python3 docs/evidence/run196/rows.py "$s"
done
rm -rf "$T"
