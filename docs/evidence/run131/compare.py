#!/usr/bin/env python3
"""The histogram grid's A/B (runs 131 and 133): a = kShared merged in clusters (no memset),
b = kSharedAtomic (a memset, then global atomics). Per side, frame size and issue mode: the
calibrated prediction's max error and points over 10 %; then per n the median over the side's
sweeps of the batch's time and of the host's issue time per sub-chunk.
  python3 docs/evidence/run131/compare.py 'PREFIX'   # e.g. /tmp/run131/sweep- or .../hist-
(reads PREFIXa*.csv and PREFIXb*.csv, unzipped)"""
import collections
import csv
import glob
import statistics
import sys

prefix = sys.argv[1]
rows = collections.defaultdict(list)
for side in "ab":
    for f in sorted(glob.glob(f"{prefix}{side}*.csv")):
        for r in csv.DictReader(open(f)):
            rows[(side, int(r["in_bytes"]), r["issue"], int(r["streams"]))].append(r)
sizes = sorted({k[1] for k in rows})
for side in "ab":
    over = collections.Counter()
    worst = collections.defaultdict(float)
    points = 0
    for (s, size, issue, n), rs in rows.items():
        if s != side:
            continue
        for r in rs:
            m = float(r["median_ms"])
            e = abs(float(r["pred_calibrated"]) - m) / m
            points += 1
            over[(size, issue)] += e > 0.10
            worst[(size, issue)] = max(worst[(size, issue)], e)
    print(f"side {side}: {points} points, {sum(over.values())} over 10 %")
    for k in sorted(worst):
        print(f"  {k[0] / 2**20:7.2f} MiB {k[1]:7s} max {100 * worst[k]:5.1f} %  over 10 %: {over[k]}")
for issue in ("streams", "graph"):
    for size in sizes:
        print(f"\n{issue}, {size / 2**20:.2f} MiB a batch: n, batch us a / b, issue us per sub-chunk a / b")
        for n in sorted({k[3] for k in rows if k[1] == size and k[2] == issue}):
            def med(side, col):
                v = [float(r[col]) for r in rows[(side, size, issue, n)]]
                return statistics.median(v) * 1e3 if v else float("nan")
            print(f"  n={n:3d}  {med('a', 'median_ms'):8.1f} / {med('b', 'median_ms'):8.1f}"
                  f"   {med('a', 'issue_ms') / n:6.2f} / {med('b', 'issue_ms') / n:6.2f}")
