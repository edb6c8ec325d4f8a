# The calibrated prediction's error counted from the nearer edge of each point's own batches'
# p10-p90 (0 inside it), beside its error from their median, per sweep and issue mode: the
# summary's row "calibrated, beyond the batches' p10-p90" (lib/core/sweep.cpp), per mode.
#   python3 docs/evidence/run190/band.py docs/evidence/run187/sweep-?a.csv.gz \
#     docs/evidence/run188/sweep-?a.csv.gz docs/evidence/run189/sweep-*.csv.gz \
#     docs/evidence/run190/sweep-?a.csv.gz
import csv, gzip, sys
modes = within_med = within_band = pts_med = pts_band = 0
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    for mode in ('graph', 'streams'):
        errs = []
        for r in rows:
            if r['issue'] != mode or r['pred_calibrated'] in ('', 'nan'):
                continue
            p, m = float(r['pred_calibrated']), float(r['median_ms'])
            lo, hi = min(float(r['p10_ms']), m), max(float(r['p90_ms']), m)
            out = p - hi if p > hi else lo - p if p < lo else 0.0
            errs.append((abs(p / m - 1), out / m))
        if not errs:
            continue
        mx, mb = max(e[0] for e in errs), max(e[1] for e in errs)
        om, ob = sum(e[0] > .1 for e in errs), sum(e[1] > .1 for e in errs)
        modes += 1; within_med += mx <= .1; within_band += mb <= .1; pts_med += om; pts_band += ob
        name = '/'.join(f.split('/')[-2:]).replace('.csv.gz', '')
        print(f'{name:24s} {mode:7s} from the median: max {100*mx:5.1f} % ({om:2d} over 10 %)'
              f'   beyond p10-p90: max {100*mb:5.1f} % ({ob:2d} over 10 %)')
print(f'{modes} sweep-modes: max within 10 % from the median in {within_med}, beyond p10-p90 in '
      f'{within_band}; points over 10 %: {pts_med} and {pts_band}')
