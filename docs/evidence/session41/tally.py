# Tallies docs/evidence/session41/replay_traces.sh's output: per run and over all, the
# sweep-modes whose every point is within 10 % and the points over 10 %, for the calibrated
# prediction replayed without adaptive.cap_slow_visits ("uncapped") and with it ("capped");
# symmetric-grid sweeps (36 configurations a mode) apart from the others (whole grids, matmul).
#   python3 docs/evidence/session41/tally.py REPLAY.txt
import re, sys
from collections import defaultdict

rows = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # (kind, run) -> pred -> [modes, within, over]
sweep = None
kind = None
repro = [0, 0, 0.0, 0.0]  # fitted, failed, worst match uncapped
for line in open(sys.argv[1]):
    m = re.match(r"== (run\d+)", line)
    if m:
        sweep = m.group(1)
        continue
    m = re.match(r"(\d+) configurations replayed with .*; (\d+) not reproduced", line)
    if m:
        repro[0] += int(m.group(1)); repro[1] += int(m.group(2))
        continue
    m = re.match(r"(graph|streams): (\d+) configurations, (\d+) points; .* within ([\d.]+) % \(options now\) / ([\d.]+) % \(uncapped\)", line)
    if m:
        kind = "symmetric" if int(m.group(3)) <= 144 and int(m.group(2)) > 10 else "other"
        repro[2] = max(repro[2], float(m.group(5)))
        continue
    m = re.match(r"\s+replayed(, uncapped)?:\s+median ([\d.]+) %, max ([\d.]+) %, over 10 %: (\d+)", line)
    if m:
        pred = "uncapped" if m.group(1) else "capped"
        for key in ((kind, sweep), (kind, "all")):
            t = rows[key][pred]
            t[0] += 1; t[1] += int(m.group(4)) == 0; t[2] += int(m.group(4))
print(f"configurations replayed with a fitted kernel half: {repro[0]}, not reproduced: {repro[1]}; "
      f"uncapped replay against the sweep's own prediction: within {repro[2]:.2f} % at worst")
print(f"{'grid':10s} {'run':7s} {'sweep-modes':>11s} {'within 10 %: uncapped / capped':>31s} {'points over 10 %: uncapped / capped':>36s}")
for (kind, run) in sorted(rows, key=lambda k: (k[0], k[1] == "all", k[1])):
    u, c = rows[(kind, run)]["uncapped"], rows[(kind, run)]["capped"]
    print(f"{kind:10s} {run:7s} {u[0]:11d} {u[1]:>20d} / {c[1]:<8d} {u[2]:>24d} / {c[2]:<8d}")
