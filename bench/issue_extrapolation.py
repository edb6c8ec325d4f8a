#!/usr/bin/env python3
"""How well the host's issue time at far n follows from the n an adaptive run visits.

    bench/issue_extrapolation.py SWEEP_CSV [SWEEP_CSV ...]

For each configuration of a sweep (`streampipe sweep --output=`), the n the adaptive run is
taken to have visited are those within [n*/2, 2 n*] of its chosen n* (at least two; else the
smallest n up to max(2, 2 n*)). Their measured issue times (issue_ms) are fitted four ways and
extrapolated to every n above twice the largest visited one:
  line   least squares a + s n (a >= 0), what StreamController::MeasuredIssueLine does;
  top2   the line through the two largest visited n;
  power  a n^b, least squares in log-log;
  prop   the largest visited n's time per sub-chunk times n.
Prints, per issue mode and form, the median and maximum |predicted / measured - 1|, the median
signed error and the points over 10 %. Only the Python standard library is used; gzip'd CSVs
are read as they are.
"""
import csv
import gzip
import math
import statistics
import sys
from collections import defaultdict


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return list(csv.DictReader(f))


def forms(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    k = len(xs)
    mx, my = sum(xs) / k, sum(ys) / k
    sxx = sum((x - mx) ** 2 for x in xs)
    s = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
    a = my - s * mx
    (n0, i0), (n1, i1) = sorted(points)[-2:]
    s2 = (i1 - i0) / (n1 - n0)
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mlx, mly = sum(lx) / k, sum(ly) / k
    b = sum((u - mlx) * (v - mly) for u, v in zip(lx, ly)) / sum((u - mlx) ** 2 for u in lx)
    la = mly - b * mlx
    return {
        "line": lambda n: max(0.0, a) + s * n,
        "top2": lambda n: i1 + s2 * (n - n1),
        "power": lambda n: math.exp(la) * n ** b,
        "prop": lambda n: i1 * n / n1,
    }


def main(paths):
    if not paths:
        sys.stderr.write(__doc__)
        return 64
    for path in paths:
        configs = defaultdict(dict)
        for r in read_rows(path):
            key = tuple(r[k] for k in ("issue", "workload", "in_bytes", "out_bytes", "intensity",
                                       "order"))
            configs[key][int(r["streams"])] = r
        errors = defaultdict(list)
        for key, by_n in configs.items():
            ns = sorted(by_n)
            star = int(by_n[ns[0]]["chosen_adaptive"])
            visited = [n for n in ns if star / 2 <= n <= 2 * star]
            if len(visited) < 2:
                visited = [n for n in ns if n <= max(2, 2 * star)][-3:]
            points = [(n, float(by_n[n]["issue_ms"])) for n in visited]
            if len(points) < 2 or any(p[1] <= 0 for p in points):
                continue
            fitted = forms(points)
            for n in ns:
                if n < 2 * visited[-1]:
                    continue
                measured = float(by_n[n]["issue_ms"])
                for name, f in fitted.items():
                    errors[(key[0], name)].append(f(n) / measured - 1.0)
        for (mode, name), e in sorted(errors.items()):
            a = sorted(abs(x) for x in e)
            print("%s %-7s %-5s %4d points: median %5.1f %%, max %6.1f %%, bias %+5.1f %%, "
                  "%3d over 10 %%" % (path, mode, name, len(a), 100 * statistics.median(a),
                                      100 * a[-1], 100 * statistics.median(e),
                                      sum(x > 0.10 for x in a)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
