#!/usr/bin/env python3
"""What an adaptive run's re-measurements and visits cost, from the sweep's adaptive traces.

    python3 docs/evidence/session39/overhead.py TRACE.csv.gz [...]

Per kept adaptive run (a trace's configuration and adaptive_run), the level is the median of its
streamed batches at the n it ended on; each batch's excess over that level is summed by kind
(measure: the non-streamed measurements, the level check's batch among them; explore: visits;
streamed: the batches at n* and any n before the last switch). Printed per file: re-measurements
per run, and each kind's excess as a share of the runs' batches at their level. What a
re-measurement triggered by a drift that kept n costs is at most the measure and explore shares.
Only the Python standard library is used.
"""
import csv
import gzip
import statistics
import sys
from collections import defaultdict

KEY = ("workload", "grid", "in_bytes", "out_bytes", "intensity", "order", "issue", "adaptive_run")


def main(paths):
    for path in paths:
        runs = defaultdict(list)
        with gzip.open(path, "rt", newline="") as f:
            for r in csv.DictReader(f):
                runs[tuple(r[k] for k in KEY)].append(r)
        excess = defaultdict(float)
        base = 0.0
        remeasures = []
        for rows in runs.values():
            rows.sort(key=lambda r: int(r["batch"]))
            streamed = [r for r in rows if r["kind"] == "streamed"]
            if not streamed:
                continue
            final_n = streamed[-1]["streams"]
            level = statistics.median(float(r["elapsed_ms"]) for r in streamed
                                      if r["streams"] == final_n)
            remeasures.append(sum(r["kind"] == "measure" for r in rows) - 1)
            for r in rows:
                excess[r["kind"]] += float(r["elapsed_ms"]) - level
            base += level * len(rows)
        print(f"{path}: {len(remeasures)} runs; measurements after the first per run: mean "
              f"{statistics.mean(remeasures):.2f}, most {max(remeasures)}, runs with any "
              f"{sum(1 for m in remeasures if m > 0)}")
        for kind in ("measure", "explore", "streamed"):
            print(f"  {kind:9s} {100 * excess[kind] / base:5.1f} % over the runs' time at their level")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(64)
    main(sys.argv[1:])
