# The current controller's figures from run 175's symmetric-grid sweeps (pred_calibrated: the
# binary is the current code). Per sweep-mode: median / max error (points over 10 %); the
# adaptive choice, best time / time at the chosen n, mean and worst over the configurations;
# the measurement itself (rounds after / before) over 10 %, from the log; adaptive runs repeated.
#   python3 docs/evidence/run175/current.py docs/evidence/run175/sweep-*.csv.gz
import csv, gzip, sys, collections, statistics as st, re
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    log = gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt').read()
    itself = dict(re.findall(r'sweep: (graph|streams): the measurement itself.*?, (\d+) over 10 %', log))
    for mode in ('graph', 'streams'):
        pts = [r for r in rows if r['issue'] == mode]
        e = [abs(float(r['pred_calibrated']) / float(r['median_ms']) - 1) for r in pts]
        cfg = collections.defaultdict(list)
        for r in pts:
            cfg[(r['workload'], r['grid'], r['in_bytes'], r['out_bytes'], r['intensity'], r['order'])].append(r)
        ratios, repeated = [], 0
        for k, rs in cfg.items():
            best = min(float(r['median_ms']) for r in rs)
            ch = [float(r['median_ms']) for r in rs if int(r['streams']) == int(r['chosen_adaptive'])]
            if ch: ratios.append(best / ch[0])
            repeated += int(rs[0]['adaptive_runs'] or 1) - 1
        print('%-22s %-7s itself %3s  calibrated %.1f %% / %.1f %% (%d)  choice %.3f / %.3f (%d)  repeated %d' % (
            '/'.join(f.split('/')[-2:]), mode, itself.get(mode, '?'), 100 * st.median(e), 100 * max(e),
            sum(x > 0.1 for x in e), st.mean(ratios), min(ratios), len(ratios), repeated))
