# Run 191's sweeps per sweep-mode and grid: the calibrated prediction's median and max error and
# points over 10 % (from the median, and beyond the point's own p10-p90 as the summary's row
# counts it), the adaptive choice's mean and worst ratio (best / chosen) per issue mode.
#   python3 docs/evidence/run191/modes.py docs/evidence/run191/sweep-*.csv.gz
import csv, gzip, sys, collections, statistics as st
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    name = f.split('/')[-1].replace('.csv.gz', '')
    for mode in ('graph', 'streams'):
        pts = [r for r in rows if r['issue'] == mode]
        for grid in sorted({(r['workload'], r['grid']) for r in pts}) + [None]:
            g = [r for r in pts if grid is None or (r['workload'], r['grid']) == grid]
            e, b = [], []
            for r in g:
                p, m = float(r['pred_calibrated']), float(r['median_ms'])
                lo, hi = min(float(r['p10_ms']), m), max(float(r['p90_ms']), m)
                e.append(abs(p / m - 1))
                b.append((p - hi if p > hi else lo - p if p < lo else 0.0) / m)
            cfg = collections.defaultdict(list)
            for r in g:
                cfg[tuple(r[k] for k in ('workload', 'grid', 'in_bytes', 'out_bytes', 'intensity', 'order'))].append(r)
            ratios = []
            for rs in cfg.values():
                best = min(float(r['median_ms']) for r in rs)
                ch = [float(r['median_ms']) for r in rs if r['streams'] == r['chosen_adaptive']]
                if ch:
                    ratios.append(best / ch[0])
            label = 'all' if grid is None else '/'.join(grid)
            print(f'{name:10s} {mode:7s} {label:22s} {len(g):4d} pts  median {100*st.median(e):4.1f} %  '
                  f'max {100*max(e):5.1f} % ({sum(x > .1 for x in e):2d} over)  beyond p10-p90 max '
                  f'{100*max(b):5.1f} % ({sum(x > .1 for x in b):2d})  choice mean {st.mean(ratios):.4f} '
                  f'worst {min(ratios):.3f} ({len(ratios)} cfgs)')
