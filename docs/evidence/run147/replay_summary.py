#!/usr/bin/env python3
"""Summary of replay_ab.sh's output: per burst position and issue mode, over the eight sweeps,
the median of the largest error, the mean points over 10 % per seed, and the adaptive choice
(mean of the sweeps' mean best/chosen, the worst single run), base against new.
  python3 docs/evidence/run147/replay_summary.py docs/evidence/run147/replay-ab.txt"""
import collections
import statistics
import sys

agg = collections.defaultdict(lambda: collections.defaultdict(list))
for r in (line.split() for line in open(sys.argv[1])):
    name, burst, side, mode = r[:4]
    largest, over, mean, worst = (float(r[7].rstrip(",")), float(r[9]), float(r[11].rstrip(",")),
                                  float(r[13].rstrip(";")))
    agg[(burst, mode)][side].append((largest, over, mean, worst))
print("burst         mode    | base: largest (median over sweeps), points over 10 % per seed, "
      "choice mean, worst run | new: the same")
for k in sorted(agg):
    out = []
    for side in ("base", "new"):
        v = agg[k][side]
        out.append(f"{statistics.median(x[0] for x in v):5.1f} % {statistics.mean(x[1] for x in v):5.1f}"
                   f" {statistics.mean(x[2] for x in v):.4f} {min(x[3] for x in v):.3f}")
    print(f"{k[0]:13} {k[1]:7} | {out[0]} | {out[1]}")
