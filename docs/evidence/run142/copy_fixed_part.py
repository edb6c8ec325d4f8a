#!/usr/bin/env python3
"""Would a measured fixed part of the copies help, as the kernel's did? An offline bound: the
current model's device part (streampipe advise, run 117's profile, s = 0) against the held
batches of runs 141-142's halves sweeps (a1-a3), depth-first, batches up to 8 MiB, n <= 16,
with the copies' L+o as calibrated ("base") and raised to the whole of each measured copy that
its bytes at the profile's G do not explain ("fixed": t - B G, at least L+o; the most a
halves measurement of the copies could move to the fixed part).
  python3 docs/evidence/run142/copy_fixed_part.py DIR   # DIR holds sweep-a1.csv .. a3.csv
  (run 141's sweep-a.csv as sweep-a1.csv), with build/mine/apps/streampipe built"""
import csv
import json
import statistics
import subprocess
import sys

d = sys.argv[1]
B = "build/mine/apps/streampipe"
P = "docs/evidence/run117/h100.toml"
lat_hd, lat_dh, G_hd, G_dh = 0.00448, 0.003808, 2.0246e-08, 1.8416e-08
res = {"base": [], "fixed": []}
for s in ("a1", "a2", "a3"):
    cfgs = {}
    for r in csv.DictReader(open(f"{d}/sweep-{s}.csv")):
        if r["order"] == "depth-first" and r["held_ms"] and float(r["in_bytes"]) <= 8e6:
            key = (r["workload"], r["in_bytes"], r["out_bytes"], r["intensity"], r["issue"])
            cfgs.setdefault(key, []).append(r)
    for key, rs in cfgs.items():
        r0 = rs[0]
        inb, outb = float(r0["in_bytes"]), float(r0["out_bytes"])
        h, k, dd = float(r0["h2d_ms"]), float(r0["kernel_ms"]), float(r0["d2h_ms"])
        kh = r0["kernel_half_ms"] or "0"
        lats = {"base": (lat_hd, lat_dh),
                "fixed": (max(lat_hd, h - inb * G_hd), max(lat_dh, dd - outb * G_dh))}
        for v, (lh, ld) in lats.items():
            out = subprocess.run(
                [B, "advise", "--json", "--model=current", f"--h2d-ms={h}", f"--kernel-ms={k}",
                 f"--d2h-ms={dd}", f"--kernel-half-ms={kh}", f"--h2d-bytes={inb}",
                 f"--d2h-bytes={outb}", "--max-streams=128", "--powers-of-two", f"--profile={P}",
                 "--sub-chunk-ms=0", f"--h2d-latency-ms={lh}", f"--d2h-latency-ms={ld}"],
                capture_output=True, text=True, check=True)
            pred = {p["streams"]: p["ms"] for p in json.loads(out.stdout)["predictions"]}
            for r in rs:
                n = int(r["streams"])
                if n in pred and n <= 16:
                    res[v].append((key[0], pred[n] / float(r["held_ms"]) - 1))
for v, e in res.items():
    a = [abs(x) for _, x in e]
    print(f"{v:5s} {len(a)} points: median {100 * statistics.median(a):.1f} %, max "
          f"{100 * max(a):.1f} %, {sum(x > 0.1 for x in a)} over 10 %")
    for w in ("histogram", "matmul", "asymmetric"):
        b = [x for ww, x in e if ww == w]
        print(f"      {w}: {len(b)} points, signed median {100 * statistics.median(b):+.1f} %, "
              f"|median| {100 * statistics.median([abs(y) for y in b]):.1f} %")
