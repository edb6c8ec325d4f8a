# Run 185's exact pairs: at every n an adaptive run measured, the prediction (pred_calibrated: its
# measured time since e0130e1) against the model's value at that n from the log (`adaptive model
# at the measured n`: the prediction before e0130e1); every other point is the same either way.
# Per sweep-mode and in total: errors at the host-bound measured n (issue >= 0.8 of the time) and
# at the device-bound ones, and over the symmetric grid's points the max and the count over 10 %.
#   python3 docs/evidence/run185/paired.py docs/evidence/run185/sweep-*.csv.gz
import csv, gzip, re, sys, statistics as st
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=')
acc = {'host-bound': [[], []], 'device': [[], []]}
tot = [0, 0]
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    bound, model, key = {}, {}, None
    for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = CFG.match(line)
        if m:
            key = tuple(m.group(1, 2, 3, 4, 5, 6, 7)); continue
        if key is None: continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if m:
            for n, s, t, i in re.findall(r'n=(\d+):(\d+)x([\d.]+)/([\d.]+)', m[1]):
                bound[key + (int(n),)] = float(i) >= 0.8 * float(t)
        m = re.match(r'\s+adaptive model at the measured n \(n:ms\): (.*)', line)
        if m:
            for n, v in re.findall(r'n=(\d+):([\d.]+)', m[1]):
                model[key + (int(n),)] = float(v)
            key = None
    for mode in ('graph', 'streams'):
        new, old = [], []
        for r in rows:
            if r['issue'] != mode: continue
            k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'], int(r['streams']))
            meas, p = float(r['median_ms']), float(r['pred_calibrated'])
            q = model.get(k, p)
            if k in bound:
                a = acc['host-bound' if bound[k] else 'device']
                a[0].append(abs(p / meas - 1)); a[1].append(abs(q / meas - 1))
            if r['grid'] == 'symmetric':
                new.append(abs(p / meas - 1)); old.append(abs(q / meas - 1))
        if new:
            nn, no = sum(e > 0.1 for e in new), sum(e > 0.1 for e in old)
            tot[0] += nn; tot[1] += no
            print('%-22s %-7s symmetric: max %5.1f %% (%2d over 10 %%), model at measured n %5.1f %% (%2d)' % (
                '/'.join(f.split('/')[-2:]), mode, 100 * max(new), nn, 100 * max(old), no))
fmt = lambda x: 'median %4.1f %%, max %5.1f %%, %3d over 10 %%' % (100 * st.median(x), 100 * max(x), sum(e > 0.1 for e in x)) if x else '-'
for g, (p, q) in acc.items():
    print('%-10s measured n: %4d points; prediction %s; model %s' % (g, len(p), fmt(p), fmt(q)))
print('symmetric grid, points over 10 %%: %d with e0130e1, %d with the model at the measured n' % tuple(tot))
