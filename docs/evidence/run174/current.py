# The current controller's figures from runs 173-174's sweeps: pred_calibrated_all_star is
# the prediction with contemporaneous_visits off, which is the current code's; the choice is the run's (the
# option moved predictions only). Per sweep-mode: median / max error (points over 10 %) over the
# whole grid and the symmetric add-scalar grid; the adaptive choice, best time / time at the
# chosen n, mean and worst over the configurations.  python3 current.py SWEEP.csv.gz...
import csv, gzip, sys, collections, statistics as st
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    for mode in ('graph', 'streams'):
        pts = [r for r in rows if r['issue'] == mode]
        def acc(ps):
            e = [abs(float(r['pred_calibrated_all_star']) / float(r['median_ms']) - 1) for r in ps]
            return '%.1f %% / %.1f %% (%d)' % (100 * st.median(e), 100 * max(e), sum(x > 0.1 for x in e))
        cfg = collections.defaultdict(list)
        for r in pts:
            cfg[(r['workload'], r['grid'], r['in_bytes'], r['out_bytes'], r['intensity'], r['order'])].append(r)
        ratios = []
        for k, rs in cfg.items():
            best = min(float(r['median_ms']) for r in rs)
            ch = [float(r['median_ms']) for r in rs if int(r['streams']) == int(r['chosen_adaptive'])]
            if ch: ratios.append(best / ch[0])
        print('%-26s %-7s whole %-22s symmetric %-22s choice %.3f / %.3f (%d)' % (
            '/'.join(f.split('/')[-2:]), mode, acc(pts), acc([r for r in pts if r['grid'] == 'symmetric']),
            st.mean(ratios), min(ratios), len(ratios)))
