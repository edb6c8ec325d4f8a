# Signed error of the calibrated prediction at n never visited below n* (n > 1), by n* and n, over
# the symmetric sweeps of the runs named (their sweep CSVs and adaptive traces).
#   cd docs/evidence && python3 session42/below.py run236 run233 run229
import csv, gzip, glob, collections, statistics, sys
# signed error of the calibrated prediction at n never visited below n* (n > 1), by n and n*
for run in sys.argv[1:]:
    by = collections.defaultdict(list)
    for f in sorted(glob.glob(f"{run}/sweep-*.csv.gz")):
        t = f.replace("sweep-", "trace-")
        try: tr = list(csv.DictReader(gzip.open(t, "rt")))
        except FileNotFoundError: continue
        seen = collections.defaultdict(set)
        for r in tr:
            if r["kind"] in ("explore", "streamed"): seen[(float(r["intensity"]), r["order"], r["issue"], r["grid"])].add(int(r["streams"]))
        for r in csv.DictReader(gzip.open(f, "rt")):
            if r["grid"] != "symmetric": continue
            n = int(r["streams"]); star = int(r["chosen_adaptive"])
            if n == 1 or n >= star or n in seen[(float(r["intensity"]), r["order"], r["issue"], r["grid"])]: continue
            by[(star, n)].append(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1)
    print(run)
    for k in sorted(by):
        v = by[k]
        print(f"  n*={k[0]:3d} n={k[1]:3d}: {len(v):4d} points, signed median {100*statistics.median(v):+.1f} %, over 10 % {sum(abs(x)>0.1 for x in v)}, p10 {100*sorted(v)[len(v)//10]:+.1f} p90 {100*sorted(v)[9*len(v)//10]:+.1f}")
