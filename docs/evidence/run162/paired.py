# Each sweep's calibrated prediction (with the sweep's --prior-samples) against the same run's
# prediction from the visits' samples alone (pred_calibrated_samples, prior 0), per issue mode:
# median / max error and points over 10 %, over the whole grid and the symmetric add-scalar grid.
#   python3 docs/evidence/run162/paired.py docs/evidence/run162/sweep-*.csv.gz
import csv, gzip, sys, statistics as st
tot = {}
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt') if f.endswith('.gz') else open(f)))
    for mode in ('streams', 'graph'):
        for grid in ('whole', 'symmetric'):
            pts = [r for r in rows if r['issue'] == mode and (grid == 'whole' or r['grid'] == 'symmetric')]
            if not pts: continue
            out = []
            for col in ('pred_calibrated', 'pred_calibrated_samples'):
                e = [abs(float(r[col]) / float(r['median_ms']) - 1) for r in pts]
                out.append('%.1f %% / %.1f %% (%d)' % (100 * st.median(e), 100 * max(e), sum(x > 0.1 for x in e)))
                k = (f.split('sweep-')[-1].split('.')[0], grid, col)
                tot[k] = tot.get(k, 0) + sum(x > 0.1 for x in e)
            print('%-28s %-7s %-9s prior %-22s samples alone %s' % (f.split('/')[-1], mode, grid, out[0], out[1]))
print()
for k in sorted(tot): print('total points over 10 %%: %s %s %s: %d' % (k[0], k[1], k[2], tot[k]))
