# Compares two outputs of docs/evidence/session42/replay_all.sh (A: without a change, B: with it):
# per run and over all, the sweep-modes whose every point is within 10 % and the points over
# 10 % of the replayed calibrated prediction ("replayed:" lines), symmetric-grid sweeps (36
# configurations a mode) apart from the others; and each point over 10 % in one and not the other.
#   python3 docs/evidence/session42/compare.py A.txt B.txt
import re, sys
from collections import defaultdict

def read(path):
    modes = {}   # (sweep, mode) -> (kind, median, max, over)
    points = {}  # (sweep, name) -> replayed error %
    sweep = kind = None
    pending = []
    for line in open(path):
        m = re.match(r"== (\S+)", line)
        if m: sweep = m.group(1); pending = []; continue
        m = re.match(r"  (.*n=\d+): median [\d.]+ ms, sweep ([-+\d.]+) %, replayed ([-+\d.]+) %", line)
        if m: pending.append((m.group(1), float(m.group(3)))); continue
        m = re.match(r"(graph|streams): (\d+) configurations, (\d+) points", line)
        if m:
            mode = m.group(1)
            kind = "symmetric" if int(m.group(3)) <= 144 and int(m.group(2)) > 10 else "other"
            for name, e in pending: points[(sweep, name)] = e
            pending = []
            continue
        m = re.match(r"\s+replayed:\s+median ([\d.]+) %, max ([\d.]+) %, over 10 %: (\d+)", line)
        if m: modes[(sweep, mode)] = (kind, float(m.group(1)), float(m.group(2)), int(m.group(3)))
    return modes, points

def main():
    A, pa = read(sys.argv[1]); B, pb = read(sys.argv[2])
    rows = defaultdict(lambda: [0, 0, 0, 0, 0, 0, 0])  # modes, withinA, withinB, overA, overB, medworse, maxA>maxB
    for key in A:
        if key not in B: continue
        ka, meda, maxa, ova = A[key]; _, medb, maxb, ovb = B[key]
        run = key[0].split("-")[0]
        for k in ((ka, run), (ka, "all")):
            r = rows[k]
            r[0] += 1; r[1] += ova == 0; r[2] += ovb == 0; r[3] += ova; r[4] += ovb
            r[5] += medb > meda + 0.05
    print(f"{'grid':10s} {'run':7s} {'modes':>5s} {'within 10 %: A / B':>20s} {'points over 10 %: A / B':>25s} {'median worse':>13s}")
    for (kind, run) in sorted(rows, key=lambda k: (k[0], k[1] == "all", k[1])):
        r = rows[(kind, run)]
        print(f"{kind:10s} {run:7s} {r[0]:5d} {r[1]:>10d} / {r[2]:<7d} {r[3]:>13d} / {r[4]:<9d} {r[5]:>6d}")
    print("\npoints over 10 % in B only:")
    for k in sorted(pb):
        if k not in pa: print(f"  {k[0]}: {k[1]}: B {pb[k]:+.1f} %")
    print("\npoints over 10 % in A only:")
    for k in sorted(pa):
        if k not in pb: print(f"  {k[0]}: {k[1]}: A {pa[k]:+.1f} %")


if __name__ == "__main__":
    main()
