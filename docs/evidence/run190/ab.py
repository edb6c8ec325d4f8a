# Run 190's A/B over the symmetric sweeps against the criterion in run.sh (run 187's script, with
# run 190's three parts): per sweep-mode the
# calibrated max and points over 10 %, the adaptive choice's mean and worst; per pair (sweeps
# 1-2, 3-4, 5-6, 7-8) the points over 10 %; in total the configurations under 0.95, the mean
# choice, the mean choice at intensity 3000, the points over 10 %, and the verdict.
#   python3 docs/evidence/run190/ab.py docs/evidence/run190/sweep-*.csv.gz
import csv, gzip, sys, collections, statistics as st, re
tot = {v: {'over': 0, 'ratios': [], 'r3000': [], 'under': 0} for v in 'ab'}
pairs = collections.defaultdict(dict)
for f in sorted(sys.argv[1:], key=lambda x: int(re.search(r'sweep-(\d+)', x)[1])):
    i, v = re.search(r'sweep-(\d+)([ab])', f).groups()
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    over_sweep = 0
    for mode in ('graph', 'streams'):
        pts = [r for r in rows if r['issue'] == mode]
        e = [abs(float(r['pred_calibrated']) / float(r['median_ms']) - 1) for r in pts]
        cfg = collections.defaultdict(list)
        for r in pts:
            cfg[(r['intensity'], r['order'])].append(r)
        ratios = []
        for (intensity, order), rs in cfg.items():
            best = min(float(r['median_ms']) for r in rs)
            ch = [float(r['median_ms']) for r in rs if int(r['streams']) == int(r['chosen_adaptive'])]
            if not ch:
                continue
            ratios.append(best / ch[0])
            if float(intensity) == 3000:
                tot[v]['r3000'].append(best / ch[0])
        n = sum(x > 0.1 for x in e)
        over_sweep += n
        tot[v]['over'] += n
        tot[v]['ratios'] += ratios
        tot[v]['under'] += sum(x < 0.95 for x in ratios)
        print('sweep %s%s %-7s median %.1f %%, max %5.1f %% (%2d over 10 %%); choice mean %.4f, worst %.3f' % (
            i, v, mode, 100 * st.median(e), 100 * max(e), n, st.mean(ratios), min(ratios)))
    pairs[(int(i) + 1) // 2][v] = over_sweep
for p, d in sorted(pairs.items()):
    print('pair %d: points over 10 %%: A %s, B %s' % (p, d.get('a', '-'), d.get('b', '-')))
for v in 'ab':
    t = tot[v]
    print('%s: configurations under 0.95 %d; choice mean %.4f over %d; at intensity 3000 %.4f over %d; '
          'points over 10 %% %d' % (v.upper(), t['under'], st.mean(t['ratios']), len(t['ratios']),
                                    st.mean(t['r3000']), len(t['r3000']), t['over']))
a, b = tot['a'], tot['b']
checks = [
    ('1. fewer configurations under 0.95', b['under'] < a['under']),
    ('2. mean choice higher', st.mean(b['ratios']) > st.mean(a['ratios'])),
    ('3. points over 10 % at most 1.15x', b['over'] <= 1.15 * a['over']),
]
for name, ok in checks:
    print('%-45s %s' % (name, 'yes' if ok else 'NO'))
print('criterion:', 'PASSED' if all(ok for _, ok in checks) else 'FAILED')
