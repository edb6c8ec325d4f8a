#!/usr/bin/env python3
"""The kernel's halves, A/B over whole-grid sweeps (runs 141-142): per sweep and issue mode, the
calibrated prediction (median / max / points over 10 %), the current model's device part
against the held batches (pred_current_device / held_ms) overall and its signed median per
workload, and the adaptive choice (mean / worst best-over-chosen); then, over every sweep and
histogram sweep given, the 1.5 MiB histogram's and the 0.5 MiB matrix product's chosen n.
  python3 docs/evidence/run142/compare.py SWEEP.csv...   (unzipped; a name with -a is the
  halves side, -b the side without)"""
import collections
import csv
import statistics
import sys


def side(path):
    name = path.rsplit("/", 1)[-1]
    return "a (halves)" if "-a" in name or "-j" in name else "b (without)"


def choice(rows):
    by = collections.defaultdict(dict)
    chosen = {}
    for r in rows:
        k = (r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"], r["order"])
        by[k][int(r["streams"])] = float(r["median_ms"])
        chosen[k] = int(r["chosen_adaptive"])
    ratios = {k: min(v.values()) / v[chosen[k]] for k, v in by.items() if chosen[k] in v}
    return ratios, chosen


for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    if len({r["workload"] for r in rows}) < 3:
        continue  # a histogram sweep: only in the tally below
    for mode in ("graph", "streams"):
        rs = [r for r in rows if r["issue"] == mode]
        cal = [abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1) for r in rs]
        dev = [(float(r["pred_current_device"]) / float(r["held_ms"]) - 1, r["workload"])
               for r in rs if r["held_ms"] and float(r["held_ms"]) == float(r["held_ms"])]
        ratios, _ = choice(rs)
        per = collections.defaultdict(list)
        for e, w in dev:
            per[w].append(e)
        print(f"{path.rsplit('/', 1)[-1]:14s} {side(path):12s} {mode:7s} calibrated "
              f"{100 * statistics.median(cal):.1f} % / {100 * max(cal):.1f} % "
              f"({sum(e > 0.1 for e in cal)} over 10 %); current device part vs held "
              f"{100 * statistics.median([abs(e) for e, _ in dev]):.1f} % "
              f"({sum(abs(e) > 0.1 for e, _ in dev)} over 10 %), signed median "
              + ", ".join(f"{w[:5]} {100 * statistics.median(v):+.1f} %" for w, v in sorted(per.items()))
              + f"; choice {statistics.mean(ratios.values()):.4f} / {min(ratios.values()):.3f}")

print("\nchosen n of the small configurations (depth-first), best n over chosen:")
tally = collections.Counter()
for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    for mode in ("graph", "streams"):
        rs = [r for r in rows if r["issue"] == mode and r["order"] == "depth-first"]
        ratios, chosen = choice(rs)
        for k, ratio in ratios.items():
            small = {("histogram", "1622016"): "1.5 MiB histogram", ("matmul", "524288"): "0.5 MiB matmul"}
            name = small.get((k[0], k[2]))
            if name:
                tally[(name, side(path), chosen[k] == 1)] += 1
                print(f"  {path.rsplit('/', 1)[-1]:14s} {mode:7s} {name}: n = {chosen[k]} ({ratio:.3f})")
for name in ("1.5 MiB histogram", "0.5 MiB matmul"):
    for s in ("a (halves)", "b (without)"):
        ones, others = tally[(name, s, True)], tally[(name, s, False)]
        print(f"{name}, {s}: n = 1 in {ones} of {ones + others} sweep-modes")
