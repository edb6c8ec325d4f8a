# Run 233's criterion (run.sh), from its committed sweeps and traces: each replayed by
# bench/trace_replay with adaptive.cap_slow_visits and without, then tallied.
#   bash docs/evidence/run233/criteria.sh [BUILD_DIR]
set -u
B=${1:-build/release}/bench/trace_replay
D=docs/evidence/run233
T=$(mktemp -d)
for t in $D/trace-*.csv.gz; do
  s=${t/trace-/sweep-}
  echo "== $(basename "$t" .csv.gz | sed 's/trace-//')"
  zcat "$s" > "$T/s.csv"; zcat "$t" > "$T/t.csv"
  "$B" "$T/s.csv" "$T/t.csv" docs/evidence/run117/h100.toml --list=0.10 2>&1
done > "$D/replay.txt"
rm -rf "$T"
python3 - "$D/replay.txt" <<'PY'
import re, sys
sweep = None; kind = None
sym = {"u": [0, 0, 0], "c": [0, 0, 0]}   # sweep-modes, within 10 %, points over 10 %
whole = {"u": 0, "c": 0}
fitted = failed = 0
match = 0.0
medians = []  # (sweep-mode, capped median, uncapped median)
for line in open(sys.argv[1]):
    m = re.match(r"== (\S+)", line)
    if m: sweep = m.group(1); continue
    m = re.match(r"(\d+) configurations replayed with .*; (\d+) not reproduced", line)
    if m: fitted += int(m.group(1)); failed += int(m.group(2)); continue
    m = re.match(r"(graph|streams): (\d+) configurations, (\d+) points; .* within ([\d.]+) % \(options now\)", line)
    if m:
        mode = m.group(1); kind = "whole" if sweep == "all" else "sym"
        match = max(match, float(m.group(4)))
        continue
    m = re.match(r"\s+replayed(, uncapped)?:\s+median ([\d.]+) %, max ([\d.]+) %, over 10 %: (\d+)", line)
    if m:
        k = "u" if m.group(1) else "c"
        over = int(m.group(4))
        if kind == "sym":
            sym[k][0] += 1; sym[k][1] += over == 0; sym[k][2] += over
            if k == "c": cmed = float(m.group(2))
            else: medians.append((f"{sweep} {mode}", cmed, float(m.group(2))))
        else:
            whole[k] += over
print(f"reproduced: fitted kernel halves {fitted}, not reproduced {failed}, the sweep's prediction "
      f"replayed within {match:.2f} % at worst: {fitted == 0 and failed == 0 and match <= 0.1}")
print(f"symmetric: sweep-modes {sym['c'][0]}; within 10 % capped {sym['c'][1]}, uncapped {sym['u'][1]}; "
      f"points over 10 % capped {sym['c'][2]}, uncapped {sym['u'][2]}")
primary = sym["c"][2] <= 0.85 * sym["u"][2] and sym["c"][1] >= sym["u"][1]
print(f"primary: {sym['c'][2]} <= 0.85 x {sym['u'][2]} = {0.85 * sym['u'][2]:.1f} and "
      f"{sym['c'][1]} >= {sym['u'][1]}: {primary}")
worse = [m for m in medians if m[1] > m[2] + 0.05]
print(f"no harm, medians: capped above uncapped + 0.05 in {len(worse)} of {len(medians)} sweep-modes "
      f"{worse}; whole grid points over 10 % capped {whole['c']}, uncapped {whole['u']}: "
      f"{not worse and whole['c'] <= whole['u']}")
print("all met: the default stays on" if primary and not worse and whole["c"] <= whole["u"] and
      fitted == 0 and failed == 0 and match <= 0.1 else "not all met: the default becomes off")
PY
