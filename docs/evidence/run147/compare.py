#!/usr/bin/env python3
"""Carried visits, A/B over whole-grid sweeps (run 147: four pairs, b = 21030bd's binary, a = this
session's): per sweep and issue mode, the calibrated prediction over the whole grid and over the
symmetric add-scalar grid (the baseline's: median / max / points over 10 %), the adaptive choice
(mean / worst best-over-chosen); then per sweep the configurations whose adaptive run re-derived
and kept n (from the log: "(kept)"), how many of them carried visits ("adaptive carried"), and
the points over 10 % among theirs and among the others.
  python3 docs/evidence/run147/compare.py docs/evidence/run147/sweep-*.csv.gz"""
import collections
import csv
import gzip
import re
import statistics
import sys


def adaptive_runs(log_path):
    out = []
    for line in gzip.open(log_path, "rt"):
        if re.match(r"  \S+\s+\S+\s+in\s+[\d.]+ MiB out.*best n=", line):
            out.append({"kept": False, "carried": False, "events": False})
        elif line.startswith("    adaptive events") and out and not out[-1]["events"]:
            out[-1]["events"] = True
            out[-1]["kept"] = "(kept)" in line
        elif line.startswith("    adaptive carried") and out:
            out[-1]["carried"] = True
    return out


def fmt(errs):
    return (f"{100 * statistics.median(errs):.1f} % / {100 * max(errs):.1f} % "
            f"({sum(e > 0.1 for e in errs)})")


for path in sorted(sys.argv[1:], key=lambda p: (p[-8], p[-9])):
    rows = list(csv.DictReader(gzip.open(path, "rt")))
    groups = collections.OrderedDict()
    for r in rows:
        k = (r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"], r["order"],
             r["issue"])
        groups.setdefault(k, []).append(r)
    runs = adaptive_runs(path.replace(".csv.gz", ".log.gz"))
    assert len(runs) == len(groups), (path, len(runs), len(groups))
    name = path.rsplit("/", 1)[-1].replace(".csv.gz", "")
    side = "a (carried)" if "-a" in name else "b (21030bd)"
    for mode in ("graph", "streams"):
        every, sym, ratios = [], [], []
        for k, rs in groups.items():
            if k[6] != mode:
                continue
            best = min(float(r["median_ms"]) for r in rs)
            chosen = [float(r["median_ms"]) for r in rs if r["streams"] == r["chosen_adaptive"]]
            if chosen:
                ratios.append(best / chosen[0])
            for r in rs:
                e = abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1.0)
                every.append(e)
                if r["grid"] == "symmetric":
                    sym.append(e)
        print(f"{name:9} {side:12} {mode:7} whole grid {fmt(every)}; symmetric {fmt(sym)}; "
              f"choice {statistics.mean(ratios):.4f} / {min(ratios):.3f}")
    c = collections.Counter()
    for run, rs in zip(runs, groups.values()):
        c["kept"] += run["kept"]
        c["carried"] += run["carried"]
        key = "kept" if run["kept"] else "other"
        for r in rs:
            c[key + "_points"] += 1
            c[key + "_over"] += abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1) > 0.1
    print(f"{name:9} {side:12} kept re-derivations {c['kept']} of {len(runs)} (carried visits "
          f"{c['carried']}): points over 10 % {c['kept_over']} of {c['kept_points']} "
          f"({100 * c['kept_over'] / max(1, c['kept_points']):.1f} %), others "
          f"{c['other_over']} of {c['other_points']} "
          f"({100 * c['other_over'] / max(1, c['other_points']):.1f} %)")
