# run: python3 docs/evidence/run196/rows.py docs/evidence/run19[67]/sweep-*.csv.gz
# The sweep table's row of docs/results.md per sweep: the measurement itself over 10 % (points
# whose second-half median differs from the first's by over 10 %, graph / streams), the
# calibrated median / max error (points over 10 %) per issue mode, the adaptive choice's mean /
# worst ratio to the best per mode, and the adaptive runs repeated.
import csv, gzip, sys, collections, statistics
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    name = f.split('/')[-2].replace('run', '') + '-' + f.split('/')[-1].replace('sweep-', '').replace('.csv.gz', '')
    cells = {}
    for mode in ('graph', 'streams'):
        R = [r for r in rows if r['issue'] == mode]
        moved = sum(1 for r in R if r['halves_ratio'] and abs(float(r['halves_ratio']) - 1) > .1)
        e = [abs(float(r['pred_calibrated']) / float(r['median_ms']) - 1) for r in R]
        g = collections.defaultdict(list)
        for r in R:
            g[(r['workload'], r['grid'], r['in_bytes'], r['out_bytes'], r['intensity'], r['order'])].append(r)
        ch = []; rep = 0
        for v in g.values():
            t = {int(r['streams']): float(r['median_ms']) for r in v}
            ch.append(min(t.values()) / t[int(v[0]['chosen_adaptive'])])
            rep += int(v[0]['adaptive_runs']) > 1
        cells[mode] = (moved, statistics.median(e), max(e), sum(x > .1 for x in e), sum(ch) / len(ch), min(ch), rep)
    G, S = cells['graph'], cells['streams']
    print(f"| {name} | | {G[0]} / {S[0]} | {100*G[1]:.1f} % / {100*G[2]:.1f} % ({G[3]}) | {100*S[1]:.1f} % / {100*S[2]:.1f} % ({S[3]}) "
          f"| {G[4]:.3f} / {G[5]:.3f} | {S[4]:.3f} / {S[5]:.3f} | {G[6] + S[6]} |")
