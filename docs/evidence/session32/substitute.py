# Offline: each symmetric-grid sweep-mode's calibrated max error (points over 10 %) as the sweep
# wrote it, and with the prediction at every n the adaptive run visited and the host's issue
# time bounds (issue >= 0.8 of the visit's time) replaced by the visit's own time from the log
# (its lower median; the controller would scale it by n*'s estimator as it does a device-bound
# visit's). The choice is not read from predictions, so it does not move.
#   python3 docs/evidence/session32/substitute.py SWEEP.csv.gz ...
import csv, gzip, re, sys
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)')
tot = [0, 0, 0, 0]
for f in sys.argv[1:]:
    rows = [r for r in csv.DictReader(gzip.open(f, 'rt')) if r['grid'] == 'symmetric']
    key, sub = None, {}
    for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = CFG.match(line)
        if m:
            key, nstar = tuple(m.group(1, 2, 3, 4, 5, 6, 7)), int(m[9]); continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if not (m and key): continue
        for n, s, t, i in re.findall(r'n=(\d+):(\d+)x([\d.]+)/([\d.]+)', m[1]):
            if float(i) >= 0.8 * float(t):
                sub[key + (int(n),)] = float(t)
    for mode in ('graph', 'streams'):
        a, b = [], []
        for r in rows:
            if r['issue'] != mode: continue
            k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'], int(r['streams']))
            meas = float(r['median_ms'])
            a.append(abs(float(r['pred_calibrated']) / meas - 1))
            b.append(abs(sub.get(k, float(r['pred_calibrated'])) / meas - 1))
        if not a: continue
        na, nb = sum(e > 0.1 for e in a), sum(e > 0.1 for e in b)
        tot[0] += na; tot[1] += nb; tot[2] += max(a) <= 0.1; tot[3] += max(b) <= 0.1
        print('%-24s %-7s as run %5.1f %% (%2d)   visit at host-bound n %5.1f %% (%2d)' % (
            '/'.join(f.split('/')[-2:]), mode, 100 * max(a), na, 100 * max(b), nb))
print('points over 10 %%: %d as run, %d substituted; max <= 10 %% in %d and %d sweep-modes' % tuple(tot))
