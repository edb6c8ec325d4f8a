#!/usr/bin/env python3
"""How well one sweep's measurement predicts another's: the floor under any model's error.

    bench/sweep_repeatability.py SWEEP_CSV SWEEP_CSV [SWEEP_CSV ...] [--model=calibrated]

Give it two or more CSVs that `streampipe sweep --output=...` wrote on one lease (gzipped or
not). For each sweep A and each other sweep B, per issue mode, it takes B's measured median at
every point as a prediction of A's and prints its median and maximum relative error and the
points over 10 %: what even a perfect model of the card could not beat, since the card itself
does not repeat closer than this from one sweep to the next. Beside it, the error of A's own
prediction (column pred_MODEL, default the calibrated one) over the same points, over all of
them and over the points within [n*/2, 2 n*] of the configuration's best measured n (where the
adaptive run measures).
Only the Python standard library is used.
"""
import csv
import gzip
import statistics
import sys
from collections import defaultdict

KEY = ("workload", "grid", "in_bytes", "out_bytes", "intensity", "order", "streams")


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"sweep_repeatability: cannot read {path}: {e.strerror or e}")
    if not rows or "median_ms" not in rows[0]:
        sys.exit(f"sweep_repeatability: {path}: not a sweep CSV (no median_ms column)")
    points = {}
    for row in rows:
        points[tuple(row[k] for k in KEY) + (row.get("issue") or "streams",)] = row
    return points


def within_reach(points):
    """Keys whose n lies within [n*/2, 2 n*] of their configuration's best measured n."""
    best = {}
    for key, row in points.items():
        config = key[:6] + key[7:]
        ms = float(row["median_ms"])
        if config not in best or ms < best[config][0]:
            best[config] = (ms, int(key[6]))
    return {k for k in points
            if best[k[:6] + k[7:]][1] / 2 <= int(k[6]) <= 2 * best[k[:6] + k[7:]][1]}


def summary(errors):
    if not errors:
        return "n/a"
    return "%.1f %% / %.1f %% (%d)" % (100 * statistics.median(errors), 100 * max(errors),
                                       sum(e > 0.10 for e in errors))


def main(argv):
    model = "calibrated"
    paths = []
    for arg in argv:
        if arg.startswith("--model="):
            model = arg.split("=", 1)[1]
        elif arg.startswith("-"):
            sys.exit(__doc__)
        else:
            paths.append(arg)
    if len(paths) < 2:
        sys.exit(__doc__)
    sweeps = [(p, read(p)) for p in paths]
    print("| sweep A | mode | predictor | points | median / max (over 10 %) | within [n*/2, 2 n*] |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for path_a, a in sweeps:
        reach = within_reach(a)
        for mode in sorted({k[-1] for k in a}):
            keys = [k for k in a if k[-1] == mode]
            own = defaultdict(list)
            for k in keys:
                measured = float(a[k]["median_ms"])
                err = abs(float(a[k]["pred_" + model]) - measured) / measured
                own["all"].append(err)
                if k in reach:
                    own["reach"].append(err)
            print(f"| {path_a} | {mode} | {model} | {len(keys)} | {summary(own['all'])} | "
                  f"{summary(own['reach'])} |")
            for path_b, b in sweeps:
                if path_b is path_a:
                    continue
                errs = defaultdict(list)
                for k in keys:
                    if k not in b:
                        continue
                    measured = float(a[k]["median_ms"])
                    err = abs(float(b[k]["median_ms"]) - measured) / measured
                    errs["all"].append(err)
                    if k in reach:
                        errs["reach"].append(err)
                print(f"| {path_a} | {mode} | measured in {path_b} | {len(errs['all'])} | "
                      f"{summary(errs['all'])} | {summary(errs['reach'])} |")


if __name__ == "__main__":
    main(sys.argv[1:])
