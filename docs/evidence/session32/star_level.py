# n*'s own samples (32 kept, their lower median: the prediction at n*) against the rounds' median
# at n*, per run: the median ratio, its spread, and how often over 1.05 / 1.10 or under 0.95.
# Also former n* (an n with more samples than a visit's 2-4, not the final n*).
#   python3 docs/evidence/session32/star_level.py RUNDIR ...
import csv, gzip, re, sys, glob, statistics as st
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)')
for d in sys.argv[1:]:
    star, former = [], []
    for f in sorted(glob.glob(d + '/sweep-*.csv.gz')):
        by = {}
        for r in csv.DictReader(gzip.open(f, 'rt')):
            k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'])
            by.setdefault(k, {})[int(r['streams'])] = float(r['median_ms'])
        key = None
        for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
            m = CFG.match(line)
            if m:
                key, nstar = tuple(m.group(1, 2, 3, 4, 5, 6, 7)), int(m[9]); continue
            m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
            if not (m and key in by and key[1] == 'symmetric'): continue
            for n, s, t in re.findall(r'n=(\d+):(\d+)x([\d.]+)/', m[1]):
                n, s, t = int(n), int(s), float(t)
                if n not in by[key]: continue
                if n == nstar: star.append(t / by[key][n])
                elif s > 4: former.append(t / by[key][n])
            key = None
    q = lambda v, p: sorted(v)[int(p * (len(v) - 1))]
    for name, v in (('n*', star), ('former n*', former)):
        if not v: continue
        print('%-26s %-10s %4d  median %.3f  p10 %.3f  p90 %.3f  >1.05 %3d  >1.10 %3d  <0.95 %3d' % (
            d.split('/')[-1], name, len(v), st.median(v), q(v, 0.1), q(v, 0.9),
            sum(x > 1.05 for x in v), sum(x > 1.10 for x in v), sum(x < 0.95 for x in v)))
