# run: python3 docs/evidence/run192/offline_bound.py docs/evidence/run187/sweep-?a.csv.gz docs/evidence/run188/sweep-?a.csv.gz docs/evidence/run189/sweep-*.csv.gz docs/evidence/run190/sweep-?a.csv.gz docs/evidence/run191/sweep-*.csv.gz
# Offline bound for a second non-streamed measurement later in the adaptive run, the anchor
# then the lower of the two: where the kept run's anchor read r = anchor / rounds at n = 1 over
# 1, the points below every n the run measured are predicted as if the anchor had read the
# rounds' time (the second measurement taken as a typical batch): their prediction times 1/r at
# n = 1, the factor going to 1 at the smallest measured n in log2 n ("interp"), or times 1/r at
# every such n ("full"). Per sweep-mode: max error and points over 10 %, now and under each.
import csv, gzip, re, sys, math, collections
def parse(logf):
    L = gzip.open(logf, 'rt').read().split('\n'); pending = []; cfg = {}
    for i, l in enumerate(L):
        m = re.search(r'adaptive run \d+:.*?(, kept)?\), non-streamed / rounds at n=1 ([\d.]+)', l)
        if m: pending.append((m.group(1) is not None, float(m.group(2)))); continue
        h = re.match(r'  (\S+) +(\S+) +in .*intensity (\S+)\s+(\S+)\s+(\S+)', l)
        if h:
            kept = [p for p in pending if p[0]]; pending = []; meas = {}
            for j in range(i + 1, min(i + 9, len(L))):
                if re.match(r'  \S+ +\S+ +in ', L[j]): break
                if 'adaptive measured' in L[j]:
                    meas = {int(a): int(b) for a, b in re.findall(r'n=(\d+):(\d+)x', L[j])}
            cfg.setdefault((h[1], h[2], float(h[3]), h[4], h[5]), []).append((kept[-1][1] if kept else None, meas))
    return cfg
tot = collections.Counter()
for f in sys.argv[1:]:
    cfg = parse(f.replace('.csv.gz', '.log.gz'))
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    # configurations of one (workload, grid, intensity, order, issue) come in CSV order of bytes:
    # match them to the log's in order of appearance
    seen = collections.defaultdict(list)
    for r in rows:
        k = (r['workload'], r['grid'], float(r['intensity']), r['order'], r['issue'])
        b = (r['in_bytes'], r['out_bytes'])
        if b not in seen[k]: seen[k].append(b)
    name = '/'.join(f.split('/')[-2:]).replace('.csv.gz', '')
    for mode in ('graph', 'streams'):
        e0, e1, e2 = [], [], []
        for r in rows:
            if r['issue'] != mode: continue
            k = (r['workload'], r['grid'], float(r['intensity']), r['order'], r['issue'])
            idx = seen[k].index((r['in_bytes'], r['out_bytes']))
            ratio, meas = cfg[k][idx] if idx < len(cfg.get(k, [])) else (None, {})
            n = int(r['streams']); p = float(r['pred_calibrated']); m = float(r['median_ms'])
            p1 = p2 = p
            lo = min([x for x in meas if meas[x] >= 2], default=None)
            if ratio and ratio > 1 and lo and n < lo:
                f_full = 1 / ratio
                w = 1 - math.log2(n) / math.log2(lo) if lo > 1 else 1
                p1 = p * (f_full ** w); p2 = p * f_full
            for lst, q in ((e0, p), (e1, p1), (e2, p2)): lst.append(abs(q / m - 1))
        if not e0: continue
        o = [sum(x > .1 for x in e) for e in (e0, e1, e2)]; mx = [max(e) for e in (e0, e1, e2)]
        tot['modes'] += 1
        for i, t in enumerate(('now', 'interp', 'full')):
            tot[t + '_over'] += o[i]; tot[t + '_met'] += mx[i] <= .1
        print(f'{name:22s} {mode:7s} max now {100*mx[0]:5.1f} % ({o[0]:2d})  interp {100*mx[1]:5.1f} % ({o[1]:2d})  full {100*mx[2]:5.1f} % ({o[2]:2d})')
print(f"{tot['modes']} sweep-modes; max within 10 %: now {tot['now_met']}, interp {tot['interp_met']}, full {tot['full_met']}; points over 10 %: now {tot['now_over']}, interp {tot['interp_over']}, full {tot['full_over']}")
