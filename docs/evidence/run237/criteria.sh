# Run 237's criterion (run.sh), from its committed sweeps and traces: each replayed by
# bench/trace_replay without adaptive.carry_far_visits and with it, then compared
# (docs/evidence/session42/compare.py) and checked.
#   bash docs/evidence/run237/criteria.sh [BUILD_DIR]
set -u
B=${1:-build/release}/bench/trace_replay
D=docs/evidence/run237
T=$(mktemp -d)
for carry in false true; do
  for t in $D/trace-*.csv.gz; do
    s=${t/trace-/sweep-}
    echo "== run237-$(basename "$t" .csv.gz | sed 's/trace-//')"
    zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
    "$B" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml \
      --set=adaptive.carry_far_visits=$carry --list=0.10 2>&1
  done > "$D/replay-carry-$carry.txt"
done
rm -rf "$T"
python3 docs/evidence/session42/compare.py $D/replay-carry-false.txt $D/replay-carry-true.txt
python3 - $D/replay-carry-false.txt $D/replay-carry-true.txt <<'PY'
import re, sys
sys.path.insert(0, "docs/evidence/session42")
from compare import read
A, pa = read(sys.argv[1]); B, pb = read(sys.argv[2])
fitted = 0; match = 0.0
for line in open(sys.argv[2]):
    m = re.match(r"(\d+) configurations replayed with .*; (\d+) not reproduced", line)
    if m: fitted += int(m.group(1)) + int(m.group(2))
    m = re.match(r"(graph|streams): .* within ([\d.]+) % \(options now\)", line)
    if m: match = max(match, float(m.group(2)))
sym = [k for k in A if A[k][0] == "symmetric"]
whole = [k for k in A if A[k][0] == "other"]
over_o = sum(A[k][3] for k in sym); over_w = sum(B[k][3] for k in sym)
within_o = sum(A[k][3] == 0 for k in sym); within_w = sum(B[k][3] == 0 for k in sym)
worse = [k for k in sym if B[k][1] > A[k][1] + 0.05]
put_over = [k for k in pb if k not in pa and k[0].split("-")[1] != "all"]
taken = [k for k in pa if k not in pb and k[0].split("-")[1] != "all"]
whole_o = sum(A[k][3] for k in whole); whole_w = sum(B[k][3] for k in whole)
checks = [
    ("reproduced: no fitted kernel half, none left out", fitted == 0),
    (f"reproduced: the replay with the carry within 0.1 % of the sweep's ({match:.2f} %)", match <= 0.1),
    (f"primary: symmetric points over 10 % with {over_w} <= without {over_o}", over_w <= over_o),
    (f"primary: sweep-modes within 10 % with {within_w} >= without {within_o} (of {len(sym)})", within_w >= within_o),
    (f"no harm: sweep-modes whose median is worse by > 0.05 points: {len(worse)}", not worse),
    (f"no harm: points put over {len(put_over)} <= taken under {len(taken)}", len(put_over) <= len(taken)),
    (f"no harm: whole grid points over 10 % with {whole_w} <= without {whole_o}", whole_w <= whole_o),
]
for name, ok in checks: print(("met    " if ok else "NOT MET") + "  " + name)
print("all met" if all(ok for _, ok in checks) else "criterion NOT met")
PY
