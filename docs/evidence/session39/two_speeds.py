#!/usr/bin/env python3
"""Add-scalar 64 MiB each way, issued call by call in depth-first order at n = 32: two speeds.

    python3 docs/evidence/session39/two_speeds.py

Reads committed evidence only (no GPU):
- run 178's per-batch times (`instance_spread --batches`, four pipelines of one process, six
  rounds, three timed batches a visit): how the batches at n = 16 and 32 split between a fast
  speed (under 1.68 ms) and a slow one (1.68 ms or more), per pipeline and per visit;
- run 177's per-pipeline medians with 8 hardware queues (shared.csv) and with
  CUDA_DEVICE_MAX_CONNECTIONS=32 (q32.csv);
- run 217's five symmetric sweeps: per depth-first configuration in streams mode at n = 32, the
  rounds' median, p10 and p90, the held batches' median (the device's time alone, the host's
  issue hidden), the adaptive run's visit there (trace) and the calibrated prediction.
Only the Python standard library is used.
"""
import csv
import gzip
import statistics
from collections import defaultdict

EV = "docs/evidence"
CUT = 1.68  # ms, between the two speeds at n = 32 (1.56-1.62 and 1.74-1.90 on these leases)


def rows(path):
    with gzip.open(path, "rt", newline="") as f:
        return list(csv.DictReader(f))


def run178():
    print("run 178, per batch (depth-first, streams; 4 pipelines x 6 rounds x 3 batches):")
    by = defaultdict(list)
    for r in rows(f"{EV}/run178/batches.csv.gz"):
        if r["order"] == "depth-first" and r["issue"] == "streams" and r["streams"] in ("16", "32"):
            by[(r["streams"], r["iters"], r["instance"], r["round"])].append(float(r["elapsed_ms"]))
    for n in ("16", "32"):
        for iters in ("1", "200", "500"):
            visits = [v for k, v in by.items() if k[0] == n and k[1] == iters]
            times = [t for v in visits for t in v]
            slow = sum(t >= CUT for t in times)
            mixed = sum(1 for v in visits if 0 < sum(t >= CUT for t in v) < len(v))
            per_inst = []
            for inst in "0123":
                ts = [t for k, v in by.items() if k[:3] == (n, iters, inst) for t in v]
                per_inst.append(f"{sum(t >= CUT for t in ts)}/{len(ts)}")
            print(f"  n={n:>2} intensity {iters:>3}: {slow:2d} of {len(times)} batches slow "
                  f"(>= {CUT} ms); per pipeline {' '.join(per_inst)}; {mixed} of {len(visits)} "
                  f"visits hold both speeds; fast median "
                  f"{statistics.median([t for t in times if t < CUT] or [0]):.3f}, slow median "
                  f"{statistics.median([t for t in times if t >= CUT] or [0]):.3f} ms")


def run177():
    print("run 177, each pipeline's median at n = 32 (depth-first, streams), 8 queues against 32:")
    for name in ("shared", "q32"):
        meds = defaultdict(list)
        for r in rows(f"{EV}/run177/{name}.csv.gz"):
            if r["order"] == "depth-first" and r["issue"] == "streams" and r["streams"] == "32":
                meds[r["iters"]].append(float(r["median_ms"]))
        label = "8 queues " if name == "shared" else "32 queues"
        print(f"  {label}: " + "; ".join(
            f"intensity {k}: {' '.join(f'{m:.3f}' for m in v)}" for k, v in sorted(meds.items())))


def run217():
    print("run 217 (quiet lease), depth-first, streams, n = 32: rounds median [p10 p90], held, "
          "adaptive visit, calibrated (error against the median)")
    for i in range(1, 6):
        visit = defaultdict(list)
        for r in rows(f"{EV}/run217/trace-{i}.csv.gz"):
            if (r["kind"] == "explore" and r["order"] == "depth-first" and r["issue"] == "streams"
                    and r["streams"] == "32"):
                visit[r["intensity"]].append(float(r["elapsed_ms"]))
        for r in rows(f"{EV}/run217/sweep-{i}.csv.gz"):
            if not (r["order"] == "depth-first" and r["issue"] == "streams" and r["streams"] == "32"
                    and r["intensity"] != "3000"):
                continue
            med, cal = float(r["median_ms"]), float(r["pred_calibrated"])
            v = visit.get(r["intensity"], [])
            print(f"  sweep {i} intensity {r['intensity']:>4}: {med:.3f} [{float(r['p10_ms']):.3f} "
                  f"{float(r['p90_ms']):.3f}], held {float(r['held_ms']):.3f}, visit "
                  f"{' '.join(f'{t:.3f}' for t in v) or '-':<19}, calibrated {cal:.3f} "
                  f"({100 * (cal - med) / med:+.1f} %)")


if __name__ == "__main__":
    run178()
    run177()
    run217()
