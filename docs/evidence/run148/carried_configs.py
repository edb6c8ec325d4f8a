#!/usr/bin/env python3
"""Carried visits, judged where they act (runs 147-148): per pair of sweeps (a = carried visits,
b = 21030bd, alternating on one lease), the calibrated points over 10 % in the configurations
whose a-side adaptive run used carried visits (its log says "adaptive carried"), on each side,
and in all the other configurations, where both binaries behave alike; "issue-heavy": points
whose measured issue time is at least half the batch's. Also how far the carried visits' times
and issue times were from the rounds' medians at the same n.
  python3 docs/evidence/run148/carried_configs.py A.csv.gz B.csv.gz [A.csv.gz B.csv.gz ...]"""
import collections
import csv
import gzip
import re
import sys


def load(path):
    rows = list(csv.DictReader(gzip.open(path, "rt")))
    groups = collections.OrderedDict()
    for r in rows:
        k = (r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"], r["order"],
             r["issue"])
        groups.setdefault(k, []).append(r)
    runs = []
    for line in gzip.open(path.replace(".csv.gz", ".log.gz"), "rt"):
        if re.match(r"  \S+\s+\S+\s+in\s+[\d.]+ MiB out.*best n=", line):
            runs.append({})
        m = re.match(r"    adaptive carried \(n:samples x ms/issue ms\): (.*)", line)
        if m and runs:
            for t in m.group(1).split():
                n, rest = t[2:].split(":")
                _, rest = rest.split("x")
                ms, issue = rest.split("/")
                runs[-1][int(n)] = (float(ms), float(issue))
    assert len(runs) == len(groups), path
    out = {}
    for carried, (k, rs) in zip(runs, groups.items()):
        over = [r for r in rs if abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1) > 0.1]
        heavy = [r for r in over if float(r["issue_ms"]) >= 0.5 * float(r["median_ms"])]
        out[k] = (carried, len(over), len(heavy), {int(r["streams"]): r for r in rs})
    return out


args = sys.argv[1:]
for a_path, b_path in zip(args[::2], args[1::2]):
    a, b = load(a_path), load(b_path)
    used = [k for k in a if a[k][0]]
    rest = [k for k in a if not a[k][0]]
    times, issues = [], []
    for k in used:
        at = a[k][3]
        for n, (ms, issue) in a[k][0].items():
            if n in at and ms > 0:
                times.append(ms / float(at[n]["median_ms"]))
            if n in at and issue > 0:
                issues.append(issue / float(at[n]["issue_ms"]))

    def off(v):
        return (f"{sum(abs(x - 1) <= 0.05 for x in v)} of {len(v)} within 5 %, "
                f"{sum(abs(x - 1) > 0.15 for x in v)} over 15 % off (up to {max(v):.2f}x)"
                if v else "none")

    print(f"{a_path.split('/')[-2]}/{a_path.split('/')[-1][:8]} vs {b_path.split('/')[-1][:8]}: "
          f"{len(used)} configurations used carried visits: points over 10 % a {sum(a[k][1] for k in used)} "
          f"(issue-heavy {sum(a[k][2] for k in used)}), b {sum(b[k][1] for k in used)} "
          f"(issue-heavy {sum(b[k][2] for k in used)}); the other {len(rest)}: a "
          f"{sum(a[k][1] for k in rest)}, b {sum(b[k][1] for k in rest)}")
    print(f"    carried times against the rounds: {off(times)}; carried issue times: {off(issues)}")
