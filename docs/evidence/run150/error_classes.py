#!/usr/bin/env python3
"""Where the calibrated prediction's points over 10 % lie, over sweeps of one controller: by
whether the configuration's adaptive run kept n after a drift (its log says "(kept)"), whether
the point's n is the adaptive n, another n the run measured ("adaptive measured" in the log) or
one it did not, and whether the host bounds the batch there (measured issue time at least 0.8
of the batch's, the controller's own test); per issue mode: points, signed median error, p10
and p90, points over 10 %. Then the configurations by when their run's last drift
re-derivation came (kept n or not): none, by batch 40 (the calibration had the ~110 batches it
takes to visit the neighbours and the probe before the run's end), 41-100, later; and how far
the rounds after the run moved from those before it (column halves_ratio) with and without a
drift re-derivation in the run; and per sweep and mode, the largest error over all points and
over those whose rounds after the run are within 5 % of those before it.
  python3 docs/evidence/run150/error_classes.py SWEEP.csv.gz [SWEEP.csv.gz ...]"""
import collections
import csv
import gzip
import re
import statistics
import sys

groups = collections.defaultdict(list)
by_drift = collections.Counter()
moved = {False: [], True: []}
per_sweep = []
for path in sys.argv[1:]:
    largest = collections.defaultdict(list)
    rows = collections.OrderedDict()
    for r in csv.DictReader(gzip.open(path, "rt")):
        k = (r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"], r["order"],
             r["issue"])
        rows.setdefault(k, []).append(r)
    runs = []
    for line in gzip.open(path.replace(".csv.gz", ".log.gz"), "rt"):
        m = re.match(r"  \S+\s+\S+\s+in\s+[\d.]+ MiB out.*best n=.*adaptive n=(\d+)", line)
        if m:
            runs.append({"n": int(m.group(1)), "kept": False, "visited": set()})
        m = re.match(r"    adaptive measured \(n:samples x ms/issue ms\): (.*)", line)
        if m and runs:
            runs[-1]["visited"] = {int(t[2:].split(":")[0]) for t in m.group(1).split()}
        if line.startswith("    adaptive events") and runs:
            runs[-1]["kept"] = "(kept)" in line
            drifts = [int(b) for b in re.findall(r"drift:\d+->\d+@(\d+)", line)]
            runs[-1]["last_drift"] = max(drifts) if drifts else None
    assert len(runs) == len(rows), path
    for run, (k, rs) in zip(runs, rows.items()):
        for r in rs:
            n = int(r["streams"])
            e = float(r["pred_calibrated"]) / float(r["median_ms"]) - 1
            host = float(r["issue_ms"]) >= 0.8 * float(r["median_ms"])
            where = "adaptive n" if n == run["n"] else ("measured" if n in run["visited"]
                                                        else "not measured")
            groups[(run["kept"], where, host, k[6])].append(e)
            last = run.get("last_drift")
            bucket = ("0 none" if last is None else "1 by batch 40" if last <= 40
                      else "2 batch 41-100" if last <= 100 else "3 after batch 100")
            by_drift[bucket, "points"] += 1
            by_drift[bucket, "over"] += abs(e) > 0.1
            h = float(r["halves_ratio"])
            if h == h:
                moved[last is not None].append(abs(h - 1))
            largest[k[6], "all"].append(abs(e))
            if h == h and abs(h - 1) <= 0.05:
                largest[k[6], "repeating"].append(abs(e))
    per_sweep.append((path, largest))
total = sum(sum(abs(x) > 0.1 for x in v) for v in groups.values())
print(f"{len(sys.argv) - 1} sweeps, {sum(len(v) for v in groups.values())} points, {total} over 10 %")
print("| kept n after a drift | n | host bounds the batch | mode | points | signed median | p10 | p90 "
      "| over 10 % |")
print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
for key in sorted(groups):
    v = sorted(groups[key])
    print(f"| {'yes' if key[0] else 'no'} | {key[1]} | {'yes' if key[2] else 'no'} | {key[3]} | "
          f"{len(v)} | {100 * statistics.median(v):+.1f} % | {100 * v[len(v) // 10]:+.1f} % | "
          f"{100 * v[9 * len(v) // 10]:+.1f} % | {sum(abs(x) > 0.1 for x in v)} |")
print()
print("| last drift re-derivation | points | over 10 % |")
print("| --- | ---: | ---: |")
for b in ("0 none", "1 by batch 40", "2 batch 41-100", "3 after batch 100"):
    p, o = by_drift[b, "points"], by_drift[b, "over"]
    print(f"| {b[2:]} | {p} | {o} ({100 * o / max(1, p):.1f} %) |")
print()
for d in (False, True):
    v = sorted(moved[d])
    if v:
        print(f"{'with' if d else 'without'} a drift re-derivation: {len(v)} points, the rounds after "
              f"the run against those before moved by a median {100 * statistics.median(v):.2f} %, "
              f"over 5 % at {100 * sum(x > 0.05 for x in v) / len(v):.1f} % of the points, over 10 % "
              f"at {100 * sum(x > 0.1 for x in v) / len(v):.1f} %")
print()
for path, largest in per_sweep:
    print(path + ": " + "; ".join(
        f"{mode} max {100 * max(largest[mode, 'all']):.1f} % over {len(largest[mode, 'all'])} points, "
        f"{100 * max(largest[mode, 'repeating']):.1f} % over the {len(largest[mode, 'repeating'])} "
        f"whose rounds repeat within 5 %" for mode in ("graph", "streams")))
