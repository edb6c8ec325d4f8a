#!/usr/bin/env python3
"""Prediction error of the sweep's models broken down by grid, issue order and n.

    bench/sweep_breakdown.py SWEEP_CSV [--issue=streams|graph] [--held] [MODEL ...]

Reads the CSV that `streampipe sweep --output=...` writes (gzipped or not) and prints, per subset of the points
(all; each grid; symmetric depth-first; n <= 32; n within [n*/2, 2 n*] of the best measured n
of its configuration; issue bound or not, where the CSV has issue_ms; repeating within 5 % between the rounds
before and after the adaptive run or not, where it has halves_ratio), the median and maximum of |predicted - measured| / measured for each
model (default: current, calibrated, werkhoven-2ce), then the worst point of each model.
--issue keeps the points of one issue mode (the CSV's issue column; "streams" where a CSV
predates it); without it every point counts. --held measures the errors against held_ms (the
device's time alone, batches held until issued; sweeps from run 75 on) instead of median_ms,
with the default models current_device (the current model without the issue cost s; from run
76 on), calibrated_device (the calibrated prediction's device part) and werkhoven-2ce, those
the CSV has.
Only the Python standard library is used.
"""
import csv
import gzip
import math
import statistics
import sys
from collections import defaultdict


MEASURED = "median_ms"  # or held_ms (--held)


def error(row, model):
    measured = float(row[MEASURED])
    return abs(float(row["pred_" + model]) - measured) / measured


def issue_bound(row):
    """The host took at least 0.8 of the batch's device time to enqueue it: the GPU waited."""
    return float(row["issue_ms"]) >= 0.8 * float(row["median_ms"])


def config_key(row):
    return tuple(row.get(k) or "streams" if k == "issue" else row[k]
                 for k in ("workload", "grid", "in_bytes", "out_bytes", "intensity", "order",
                           "issue"))


def by_config(rows):
    out = defaultdict(list)
    for row in rows:
        out[config_key(row)].append(row)
    return out


def near_best(rows):
    """The points whose n lies within [n*/2, 2 n*] of their configuration's best measured n."""
    out = []
    for points in by_config(rows).values():
        best = int(min(points, key=lambda r: float(r["median_ms"]))["streams"])
        out += [r for r in points if best / 2 <= int(r["streams"]) <= 2 * best]
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    try:
        opener = gzip.open if argv[1].endswith(".gz") else open
        with opener(argv[1], "rt", newline="") as f:
            rows = list(csv.DictReader(f))
    except (OSError, EOFError) as e:
        print(f"sweep_breakdown: cannot read {argv[1]}: {getattr(e, 'strerror', None) or e}",
              file=sys.stderr)
        return 66
    global MEASURED
    issue = None
    rest = []
    for a in argv[2:]:
        if a == "--held":
            MEASURED = "held_ms"
        elif a.startswith("--issue="):
            issue = a[len("--issue="):]
        else:
            rest.append(a)
    if issue is not None:
        if issue not in ("streams", "graph"):
            print(f"sweep_breakdown: --issue={issue}: expected streams or graph", file=sys.stderr)
            return 64
        rows = [r for r in rows if (r.get("issue") or "streams") == issue]
    held = MEASURED == "held_ms"
    models = rest or (["current_device", "calibrated_device", "werkhoven-2ce"] if held
                      else ["current", "calibrated", "werkhoven-2ce"])
    if not rest and rows:  # defaults the CSV lacks (run 75 has no pred_current_device)
        models = [m for m in models if "pred_" + m in rows[0]]
    missing = [m for m in models if rows and "pred_" + m not in rows[0]]
    if held and rows and "held_ms" not in rows[0]:
        missing.append("held_ms")
    if not rows or missing:
        print(f"sweep_breakdown: {argv[1]}: no rows or no column for {missing}", file=sys.stderr)
        return 65
    if held:
        rows = [r for r in rows if r["held_ms"] and math.isfinite(float(r["held_ms"]))]
    sym_df = [r for r in rows if r["grid"] == "symmetric" and r["order"] == "depth-first"]
    add_scalar = [r for r in rows if r["grid"] in ("symmetric", "asymmetric")]
    subsets = [("all points", rows)]
    for grid in sorted({r["grid"] for r in rows}):
        subsets.append((f"grid {grid}", [r for r in rows if r["grid"] == grid]))
    subsets += [
        ("add-scalar grids (symmetric + asymmetric)", add_scalar),
        ("add-scalar grids, depth-first", [r for r in add_scalar if r["order"] == "depth-first"]),
        ("symmetric, depth-first", sym_df),
        ("n <= 32", [r for r in rows if int(r["streams"]) <= 32]),
        ("symmetric, depth-first, n <= 32", [r for r in sym_df if int(r["streams"]) <= 32]),
        ("n within [n*/2, 2 n*]", near_best(rows)),
        ("symmetric, depth-first, n within [n*/2, 2 n*]", near_best(sym_df)),
    ]
    if rows and rows[0].get("issue_ms"):  # sweeps from run 30 on have the host's issue time
        subsets += [
            ("issue bound (issue >= 0.8 x measured)", [r for r in rows if issue_bound(r)]),
            ("not issue bound", [r for r in rows if not issue_bound(r)]),
        ]
    if rows and "halves_ratio" in rows[0]:  # sweeps from run 69 on
        subsets += [
            ("repeating within 5 % (after / before the adaptive run)",
             [r for r in rows if r["halves_ratio"] and abs(float(r["halves_ratio"]) - 1) <= 0.05]),
            ("repeating worse than 5 %",
             [r for r in rows if r["halves_ratio"] and math.isfinite(float(r["halves_ratio"]))
              and abs(float(r["halves_ratio"]) - 1) > 0.05]),
        ]
    header = ("| subset | points | " + " | ".join(f"{m} median / max" for m in models) +
              f" | {models[0]} over 10 % |")
    print(header)
    print("| --- | ---: | " + " | ".join("---:" for _ in models) + " | ---: |")
    for name, subset in subsets:
        if not subset:
            continue
        cells = []
        for m in models:
            errors = [error(r, m) for r in subset]
            cells.append(f"{100 * statistics.median(errors):.1f} % / {100 * max(errors):.1f} %")
        over = sum(error(r, models[0]) > 0.10 for r in subset)
        print(f"| {name} | {len(subset)} | " + " | ".join(cells) + f" | {over} |")
    print()
    for m in models:
        worst = max(rows, key=lambda r: error(r, m))
        print(f"worst {m}: {worst['workload']} {worst['grid']} intensity {worst['intensity']} "
              f"{worst['order']} n={worst['streams']}: measured {float(worst[MEASURED]):.3f} ms, "
              f"predicted {float(worst['pred_' + m]):.3f} ms ({100 * error(worst, m):.1f} %)")
    # The adaptive pipeline's choice: time at the best measured n / time at its chosen n.
    ratios = []
    for points in by_config(rows).values():
        chosen = int(points[0]["chosen_adaptive"])
        at = [float(r["median_ms"]) for r in points if int(r["streams"]) == chosen]
        if at:
            ratios.append(min(float(r["median_ms"]) for r in points) / at[0])
    if ratios:
        print(f"adaptive: best / chosen mean {statistics.mean(ratios):.3f}, worst {min(ratios):.3f} "
              f"over {len(ratios)} configurations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
