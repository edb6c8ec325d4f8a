#!/usr/bin/env python3
"""How well one sweep's measurement predicts another's: the sweep-to-sweep repeatability.

    bench/sweep_repeatability.py SWEEP_CSV SWEEP_CSV [SWEEP_CSV ...] [--model=calibrated]

Give it two or more CSVs that `streampipe sweep --output=...` wrote on one lease (gzipped or
not). For each sweep A and each other sweep B, per issue mode, it takes B's measured median at
every point as a prediction of A's and prints its median and maximum relative error and the
points over 10 %: how closely the card and host repeat from one sweep to the next. It is not a
strict floor under a model's error (B's medians carry B's own noise and bursts, which a model
need not share), but a model whose errors sit at this level is as close as the measurement can
show. With three sweeps or more, also the median of the other sweeps' medians as the
prediction (less of one sweep's noise in it). Beside it, the error of A's own
prediction (column pred_MODEL, default the calibrated one) over the same points, over all of
them and over the points within [n*/2, 2 n*] of the configuration's best measured n (where the
adaptive run measures).
Only the Python standard library is used.
"""
import csv
import gzip
import math
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


def relative_error(predicted, measured):
    """|predicted - measured| / measured, or None where either is missing or not finite."""
    try:
        p, m = float(predicted), float(measured)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(p) and math.isfinite(m) and m > 0):
        return None
    return abs(p - m) / m


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
    if len(set(paths)) != len(paths):
        sys.exit("sweep_repeatability: a CSV given twice")
    sweeps = [(p, read(p)) for p in paths]
    print("| sweep A | mode | predictor | points | median / max (over 10 %) | within [n*/2, 2 n*] |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for path_a, a in sweeps:
        reach = within_reach(a)
        others = [(path_b, b) for path_b, b in sweeps if path_b != path_a]

        def row(mode, keys, name, predicted):
            """Scores predicted(k) (None: no prediction) against A's medians at `keys`."""
            errs = defaultdict(list)
            for k in keys:
                err = relative_error(predicted(k), a[k]["median_ms"])
                if err is None:
                    continue
                errs["all"].append(err)
                if k in reach:
                    errs["reach"].append(err)
            print(f"| {path_a} | {mode} | {name} | {len(errs['all'])} | "
                  f"{summary(errs['all'])} | {summary(errs['reach'])} |")

        def pooled(k):
            values = [float(b[k]["median_ms"]) for _, b in others if k in b]
            return statistics.median(values) if values else None

        for mode in sorted({k[-1] for k in a}):
            keys = [k for k in a if k[-1] == mode]
            row(mode, keys, model, lambda k: a[k].get("pred_" + model))
            if len(others) >= 2:
                row(mode, keys, f"median of the other {len(others)} sweeps", pooled)
            for path_b, b in others:
                row(mode, keys, f"measured in {path_b}",
                    lambda k, b=b: b[k]["median_ms"] if k in b else None)

if __name__ == "__main__":
    main(sys.argv[1:])
