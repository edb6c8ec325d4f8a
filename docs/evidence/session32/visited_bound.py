# At the n a configuration's adaptive run visited (its last derivation's samples, from the sweep's
# log), the calibrated prediction's error against the rounds' median, and the error the visit's
# own time would make, split by whether the host's issue time bounds the visit (issue >= 0.8 of
# its time, kIssueBound: the controller leaves such an n out of the device residuals, and
# predicts it from the held residual and the issue line).
#   python3 docs/evidence/session32/visited_bound.py SWEEP.csv.gz ...
import csv, gzip, re, sys, collections, statistics as st
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)')
acc = collections.defaultdict(lambda: [[], []])
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    by = {}
    for r in rows:
        k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'])
        by.setdefault(k, {})[int(r['streams'])] = r
    key = None
    for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = CFG.match(line)
        if m:
            key, nstar = tuple(m.group(1, 2, 3, 4, 5, 6, 7)), int(m[9]); continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if not (m and key and key in by): continue
        for n, s, t, i in re.findall(r'n=(\d+):(\d+)x([\d.]+)/([\d.]+)', m[1]):
            n, s, t, i = int(n), int(s), float(t), float(i)
            if n == nstar or n not in by[key]: continue
            r = by[key][n]
            meas = float(r['median_ms'])
            bound = i >= 0.8 * t
            g = ('symmetric' if key[1] == 'symmetric' else 'other', 'host-bound' if bound else 'device')
            acc[g][0].append(abs(float(r['pred_calibrated']) / meas - 1))
            acc[g][1].append(abs(t / meas - 1))
print('%-10s %-10s %6s  %-28s %-28s' % ('grid', 'visit', 'points', 'prediction: median/max/>10%', 'visit itself: median/max/>10%'))
for g in sorted(acc):
    p, v = acc[g]
    fmt = lambda x: '%5.1f %% %6.1f %% %4d' % (100 * st.median(x), 100 * max(x), sum(e > 0.1 for e in x))
    print('%-10s %-10s %6d  %-28s %-28s' % (g + (len(p), fmt(p), fmt(v))))
