#!/usr/bin/env python3
"""The adaptive run's samples against the sweep's rounds, from `streampipe sweep --adaptive-trace`.

    bench/adaptive_trace_samples.py SWEEP_CSV TRACE_CSV [SWEEP_CSV TRACE_CSV ...]

Each settled batch of each kept adaptive run (TRACE_CSV, plain or .gz) is divided by the median
of the same configuration and n in the sweep's rounds (SWEEP_CSV, plain or .gz). Printed per
group: tiny batches (the configuration's n = 1 under 0.2 ms) or not, issue mode, n (tiny only),
and whether the batch was at n* (streamed) or a visit (explore): the count, quantiles of the
ratio and the share of batches over 1.05, 1.1 and 1.2 -- the right tail that the median of a
visit's two samples carried (run 97). Only the Python standard library is used.
"""
import csv
import gzip
import sys
from collections import defaultdict


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return list(csv.DictReader(f))


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    groups = defaultdict(list)
    for sweep_path, trace_path in zip(argv[0::2], argv[1::2]):
        median = {}
        for r in rows(sweep_path):
            key = (r["workload"], r["grid"], round(float(r["in_bytes"])), r["issue"],
                   r["order"], float(r["intensity"]))
            median[key + (int(r["streams"]),)] = float(r["median_ms"])
        for r in rows(trace_path):
            if r["settled"] != "1" or r["kind"] not in ("streamed", "explore"):
                continue
            key = (r["workload"], r["grid"], round(float(r["in_bytes"])), r["issue"],
                   r["order"], float(r["intensity"]))
            n = int(r["streams"])
            m = median.get(key + (n,))
            if not m:
                continue
            tiny = median.get(key + (1,), 1.0) < 0.2
            groups[("tiny" if tiny else "larger", r["issue"], n if tiny else "any",
                    "n*" if r["kind"] == "streamed" else "visit")].append(
                        float(r["elapsed_ms"]) / m)
    print("| batches | issue | n | at | samples | p10 | median | p90 | p99 "
          "| > 1.05 | > 1.1 | > 1.2 |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(groups, key=str):
        v = sorted(groups[key])
        quantiles = [v[int(p * (len(v) - 1))] for p in (0.1, 0.5, 0.9, 0.99)]
        shares = [sum(r > x for r in v) / len(v) for x in (1.05, 1.1, 1.2)]
        print("| %s | %s | %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f |" %
              (key + (len(v),) + tuple(quantiles) + tuple(shares)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
