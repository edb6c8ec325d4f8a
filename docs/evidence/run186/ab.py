# Run 186's A/B over the symmetric sweeps: per sweep-mode the calibrated max and points over 10 %,
# the adaptive choice's mean and worst and configurations under 0.95; per pair (sweeps 1-2, 3-4,
# 5-6, 7-8: one A and one B each) and in total.
#   python3 docs/evidence/run186/ab.py docs/evidence/run186/sweep-*.csv.gz
import csv, gzip, sys, collections, statistics as st, re
tot = {'a': [0, [], 0], 'b': [0, [], 0]}
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
        for rs in cfg.values():
            best = min(float(r['median_ms']) for r in rs)
            ch = [float(r['median_ms']) for r in rs if int(r['streams']) == int(r['chosen_adaptive'])]
            if ch: ratios.append(best / ch[0])
        n = sum(x > 0.1 for x in e); over_sweep += n
        tot[v][0] += n; tot[v][1] += ratios; tot[v][2] += sum(x < 0.95 for x in ratios)
        print('sweep %s%s %-7s median %.1f %%, max %5.1f %% (%2d over 10 %%); choice mean %.3f, worst %.3f' % (
            i, v, mode, 100 * st.median(e), 100 * max(e), n, st.mean(ratios), min(ratios)))
    pairs[(int(i) + 1) // 2][v] = over_sweep
for p, d in sorted(pairs.items()):
    print('pair %d: points over 10 %%: A %s, B %s' % (p, d.get('a', '-'), d.get('b', '-')))
for v in 'ab':
    print('%s: points over 10 %% %d; choice mean %.4f, configurations under 0.95: %d' % (
        v.upper(), tot[v][0], st.mean(tot[v][1]) if tot[v][1] else float('nan'), tot[v][2]))
