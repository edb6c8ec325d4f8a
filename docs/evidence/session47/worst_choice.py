# Which configurations put the adaptive choice under 0.95 of the best n's speed (issue 6's
# worst-choice goal), counted over the symmetric sweeps given (session 47).
#   python3 docs/evidence/session47/worst_choice.py SWEEP.csv.gz ...
import csv
import gzip
import sys
from collections import Counter, defaultdict

misses = Counter()
configs = 0
for path in sys.argv[1:]:
    by_config = defaultdict(dict)
    for r in csv.DictReader(gzip.open(path, "rt")):
        if r["grid"] == "symmetric":
            by_config[(r["issue"], r["intensity"], r["order"])][int(r["streams"])] = (
                float(r["median_ms"]), int(r["chosen_adaptive"]))
    for key, points in by_config.items():
        best = min(points, key=lambda n: points[n][0])
        chosen = next(iter(points.values()))[1]
        if chosen not in points:
            continue
        configs += 1
        if points[best][0] / points[chosen][0] < 0.95:
            misses[key + (best, chosen)] += 1
print("%d sweeps, %d configurations, %d under 0.95" % (len(sys.argv[1:]), configs,
                                                      sum(misses.values())))
print("count  issue    intensity  order              best n  adaptive n")
for (issue, intensity, order, best, chosen), count in misses.most_common():
    print("%5d  %-8s %9s  %-18s %6d %11d" % (count, issue, intensity, order, best, chosen))
