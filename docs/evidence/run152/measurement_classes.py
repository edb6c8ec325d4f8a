#!/usr/bin/env python3
"""Run 152: the calibrated prediction's points over 10 % by how the adaptive run's non-streamed
measurement compared with the rounds at n = 1 (the sweep log's "non-streamed / rounds at n=1",
of the kept run): "off" where it is outside 0.9-1.1, "ok" within; "-drift" where the run
re-derived after a drift (the log's "adaptive events" has a drift). Per class: points over 10 %
/ points, and the same at n <= 4 (where the measurement anchors the correction). Configurations
whose log line has another shape (the histograms') are left out.
  python3 docs/evidence/run152/measurement_classes.py docs/evidence/run152/sweep-*.log.gz"""
import collections
import csv
import gzip
import re
import sys

CONFIG = re.compile(r"\s+(\S+) (\S+)\s+in\s+([0-9.]+) MiB out\s+([0-9.]+) MiB intensity (\S+)"
                    r"\s+(\S+)\s+(\S+)\s+best")


def key_of_row(r):
    return (r["workload"], r["grid"], "%.1f" % (int(r["in_bytes"]) / 2**20),
            "%.1f" % (int(r["out_bytes"]) / 2**20), r["intensity"], r["order"], r["issue"])


for log in sys.argv[1:]:
    ratio, drift, pending, last = {}, {}, [], None
    for line in gzip.open(log, "rt"):
        m = re.search(r"non-streamed / rounds at n=1 ([0-9.]+)", line)
        if m:
            pending.append((float(m.group(1)), "kept" in line))
            continue
        m = CONFIG.match(line)
        if m:
            last = m.groups()
            kept = [q for q, k in pending if k]
            ratio[last] = kept[-1] if kept else (pending[-1][0] if pending else None)
            pending = []
        elif line.startswith("    adaptive events") and last is not None:
            drift[last] = "drift" in line
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])
    for r in csv.DictReader(gzip.open(log.replace(".log", ".csv"), "rt")):
        k = key_of_row(r)
        q = ratio.get(k)
        if q is None:
            continue
        cls = ("off" if not 0.9 <= q <= 1.1 else "ok") + ("-drift" if drift.get(k) else "")
        over = abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1) > 0.1
        s = stats[cls]
        s[0] += 1
        s[1] += over
        if int(r["streams"]) <= 4:
            s[2] += 1
            s[3] += over
    print(log.split("/")[-1], "  ".join("%s %d/%d (n<=4 %d/%d)" % (c, v[1], v[0], v[3], v[2])
                                        for c, v in sorted(stats.items())))
