# Where the prior moved a prediction (by over 0.5 %): how often it moved it toward the rounds'
# median, and the points over 5 % and 10 % either way.  python3 wins.py SWEEP.csv.gz...
import csv, gzip, sys
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    for mode in ('streams', 'graph'):
        pts = [r for r in rows if r['issue'] == mode]
        moved = closer = 0; o5 = [0, 0]
        for r in pts:
            m = float(r['median_ms']); a = float(r['pred_calibrated']); b = float(r['pred_calibrated_samples'])
            o5[0] += abs(a / m - 1) > 0.05; o5[1] += abs(b / m - 1) > 0.05
            if abs(a / b - 1) > 0.005:
                moved += 1; closer += abs(a / m - 1) < abs(b / m - 1)
        print('%-22s %-7s moved %3d, closer %3d (%.0f %%); over 5 %%: prior %d, samples alone %d' % (
            f.split('/')[-1], mode, moved, closer, 100.0 * closer / max(1, moved), o5[0], o5[1]))
