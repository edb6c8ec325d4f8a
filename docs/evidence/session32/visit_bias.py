# A visit's time against the rounds' median at its n, by issue order, issue mode and where the n
# sits against the run's final n* (below, above, far: the probe), over sweeps' logs and CSVs.
# Only visits of 2-4 samples (a neighbour's or the probe's), not n*'s own.
#   python3 docs/evidence/session32/visit_bias.py docs/evidence/run1{75,76,79,84}/sweep-*.csv.gz
import csv, gzip, re, sys, collections, statistics as st
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)')
out = collections.defaultdict(list)
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    by = {}
    for r in rows:
        k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'])
        by.setdefault(k, {})[int(r['streams'])] = float(r['median_ms'])
    key = None
    for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = CFG.match(line)
        if m:
            key, nstar = tuple(m.group(1, 2, 3, 4, 5, 6, 7)), int(m[9]); continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if not (m and key and key in by and key[1] == 'symmetric'): continue
        for n, s, t in re.findall(r'n=(\d+):(\d+)x([\d.]+)/', m[1]):
            n, s, t = int(n), int(s), float(t)
            if n == nstar or s > 4 or n not in by[key]: continue
            where = 'n*/2' if n * 2 == nstar else '2n*' if n == 2 * nstar else 'below' if n < nstar else 'far'
            out[(key[5], key[6], where)].append(t / by[key][n])
print('%-18s %-7s %-6s %5s %7s %7s %7s %7s' % ('order', 'mode', 'n', 'visits', 'median', 'p90', '>1.08', '<0.92'))
for k in sorted(out):
    v = sorted(out[k])
    print('%-18s %-7s %-6s %5d %7.3f %7.3f %7d %7d' % (k + (len(v), st.median(v), v[int(0.9 * (len(v) - 1))],
          sum(x > 1.08 for x in v), sum(x < 0.92 for x in v))))
