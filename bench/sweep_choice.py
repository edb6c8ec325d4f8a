#!/usr/bin/env python3
"""How close the adaptive pipeline's chosen n comes to the best measured n, per sweep and mode.

    bench/sweep_choice.py SWEEP.csv[.gz] [SWEEP.csv[.gz] ...] [--worst=K]

For each configuration (workload, grid, sizes, intensity, issue order, issue mode) the ratio is
the sweep's median time at the best n over its median time at the adaptive pipeline's chosen n
(1: the best; the issue's goal: >= 0.98 on average, >= 0.95 at worst). Per file and issue mode
it prints the mean, the worst, how many configurations fall below 0.95 and 0.98, and the K
worst configurations with every n's time over the best.

With two or more files (sweeps of the same grid on one lease), it also prints the same figures
for an oracle that takes each configuration's best n from the previous file and is scored on
this one: how well the best n can be known at all, given the measurement's repeatability (the
floor under any chooser's worst case). Only the Python standard library.
"""
import csv
import gzip
import sys
from collections import defaultdict


def read(path):
    """Per configuration, the median time at each n and the adaptive pipeline's chosen n."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        rows = list(csv.DictReader(f))
    times = defaultdict(dict)
    chosen = {}
    for r in rows:
        key = (r["issue"], r["workload"], r["grid"], r["in_bytes"], r["out_bytes"],
               r["intensity"], r["order"])
        times[key][int(r["streams"])] = float(r["median_ms"])
        chosen[key] = int(r["chosen_adaptive"])
    return times, chosen


def ratios(path, oracle_from=None):
    times, chosen = read(path)
    if oracle_from is not None:
        other, _ = read(oracle_from)
        chosen = {key: min(other[key], key=other[key].get) for key in times if key in other}
    out = defaultdict(list)
    for key, t in times.items():
        if key not in chosen or chosen[key] not in t:
            continue
        best = min(t.values())
        out[key[0]].append((best / t[chosen[key]], key[1:], chosen[key], t, best))
    return out


def main(argv):
    worst = 3
    paths = []
    for a in argv[1:]:
        if a.startswith("--worst="):
            worst = int(a.split("=", 1)[1])
        else:
            paths.append(a)
    if not paths:
        print(__doc__)
        return 64
    for i, path in enumerate(paths):
        runs = [(path, ratios(path))]
        if i > 0:
            runs.append(("%s, best n of %s" % (path, paths[i - 1]), ratios(path, paths[i - 1])))
        for label, by_mode in runs:
            for mode, rs in sorted(by_mode.items()):
                rs.sort(key=lambda x: x[0])
                values = [r[0] for r in rs]
                print("%s %-7s configs %d mean %.4f worst %.4f below 0.95: %d below 0.98: %d" % (
                    label, mode, len(values), sum(values) / len(values), values[0],
                    sum(v < 0.95 for v in values), sum(v < 0.98 for v in values)))
                for ratio, key, n, t, best in rs[:worst]:
                    shape = " ".join("%d:%.3f" % (m, t[m] / best) for m in sorted(t))
                    print("    %.3f %s chosen n=%d  %s" % (ratio, " ".join(key), n, shape))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
