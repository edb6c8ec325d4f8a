# Each sweep's calibrated prediction (contemporaneous_visits on, the default) against the same
# run's prediction with each visit carried through all of n*'s samples (pred_calibrated_all_star),
# per issue mode: median / max error and points over 10 %, over the whole grid and the symmetric
# add-scalar grid; then over all sweeps the criterion written into run.sh before the run.
#   python3 docs/evidence/run173/paired.py docs/evidence/run17[34]/sweep-*.csv.gz
import csv, gzip, sys, statistics as st
moved = closer = 0
over = {('whole', 0): 0, ('whole', 1): 0, ('symmetric', 0): 0, ('symmetric', 1): 0}
larger = smaller = 0
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    for mode in ('graph', 'streams'):
        for grid in ('whole', 'symmetric'):
            pts = [r for r in rows if r['issue'] == mode and (grid == 'whole' or r['grid'] == 'symmetric')]
            out, mx = [], []
            for j, col in enumerate(('pred_calibrated', 'pred_calibrated_all_star')):
                e = [abs(float(r[col]) / float(r['median_ms']) - 1) for r in pts]
                out.append('%.1f %% / %.1f %% (%d)' % (100 * st.median(e), 100 * max(e), sum(x > 0.1 for x in e)))
                over[(grid, j)] += sum(x > 0.1 for x in e)
                mx.append(max(e))
            if grid == 'whole':
                larger += mx[0] > mx[1] + 1e-9
                smaller += mx[0] < mx[1] - 1e-9
            print('%s %-7s %-9s beside %-22s all of n*\'s %s' % ('/'.join(f.split('/')[-2:]), mode, grid, out[0], out[1]))
    for r in rows:
        m = float(r['median_ms']); a = float(r['pred_calibrated']); b = float(r['pred_calibrated_all_star'])
        if abs(a / b - 1) > 0.005:
            moved += 1; closer += abs(a / m - 1) < abs(b / m - 1)
print()
print('points over 10 %%, whole grid: beside %d, all of n*\'s %d' % (over[('whole', 0)], over[('whole', 1)]))
print('points over 10 %%, symmetric grid: beside %d, all of n*\'s %d' % (over[('symmetric', 0)], over[('symmetric', 1)]))
print('points moved by over 0.5 %%: %d, toward the rounds: %d' % (moved, closer))
print('whole-grid maxima larger with it in %d sweep-modes, smaller in %d' % (larger, smaller))
ok = (over[('whole', 0)] < over[('whole', 1)] and over[('symmetric', 0)] < over[('symmetric', 1)]
      and 2 * closer > moved and larger <= smaller)
print('criterion:', 'met' if ok else 'failed')
