#!/usr/bin/env python3
"""Run 159: per sweep and mode, the calibrated prediction over the whole grid and the symmetric
add-scalar grid (median / max / points over 10 %), the adaptive choice (mean / worst best/chosen),
and the points over 10 % in the configurations whose kept run went past 150 batches (a: the
calibration completed late) or ended incomplete (b: cut at 150), against the others.
  python3 docs/evidence/run159/analyze.py docs/evidence/run159/sweep-*.csv.gz"""
import collections, csv, gzip, statistics, sys

def fmt(e):
    return f"{100*statistics.median(e):.1f} % / {100*max(e):.1f} % ({sum(x > 0.1 for x in e)})"

for path in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(path, "rt")))
    for mode in ("graph", "streams"):
        rs = [r for r in rows if r["issue"] == mode]
        cfg = collections.defaultdict(list)
        for r in rs:
            cfg[(r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"], r["order"])].append(r)
        err = lambda r: abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1)
        allv = [err(r) for r in rs]
        sym = [err(r) for r in rs if r["grid"] == "symmetric"]
        ratios = []
        flagged, others, nflag = [], [], 0
        for k, v in cfg.items():
            best = min(float(r["median_ms"]) for r in v)
            ch = [r for r in v if r["streams"] == r["chosen_adaptive"]]
            if ch: ratios.append(best / float(ch[0]["median_ms"]))
            b, c = int(v[0]["adaptive_batches"]), int(v[0]["adaptive_calibrated"])
            special = b > 150 or c == 0
            nflag += special
            (flagged if special else others).extend(err(r) for r in v)
        print(f"{path.split('/')[-1]:18} {mode:7} whole {fmt(allv)}  symmetric {fmt(sym)}  "
              f"choice {statistics.mean(ratios):.3f} / {min(ratios):.3f}  "
              f"configs past 150 or incomplete: {nflag}, their points over 10 %: "
              f"{sum(x > 0.1 for x in flagged)} of {len(flagged)}; others {sum(x > 0.1 for x in others)} of {len(others)}")
