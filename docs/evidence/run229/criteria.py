# Run 229's criterion (run.sh), A against B over every sweep of both calls.
#   python3 docs/evidence/run229/criteria.py
import collections, csv, glob, gzip, statistics

def modes(path):
    rows = list(csv.DictReader(gzip.open(path, 'rt')))
    out = []
    for mode in ('graph', 'streams'):
        R = [r for r in rows if r['issue'] == mode]
        e = [abs(float(r['pred_calibrated']) / float(r['median_ms']) - 1) for r in R]
        g = collections.defaultdict(list)
        for r in R:
            g[(r['intensity'], r['order'])].append(r)
        ch = []
        for v in g.values():
            t = {int(r['streams']): float(r['median_ms']) for r in v}
            ch.append(min(t.values()) / t[int(v[0]['chosen_adaptive'])])
        out.append((sum(x > .1 for x in e), max(e), statistics.median(e), sum(ch) / len(ch), min(ch)))
    return out

side = {}
for s in 'AB':
    m = [x for f in sorted(glob.glob(f'docs/evidence/run229/sweep-?{s}?.csv.gz')) for x in modes(f)]
    side[s] = dict(modes=len(m), over=sum(x[0] for x in m), within=sum(x[1] <= .1 for x in m),
                   median=100 * statistics.mean(x[2] for x in m),
                   choice=statistics.mean(x[3] for x in m), worst_ok=sum(x[4] >= .95 for x in m))
    print(s, ', '.join(f'{k} {v:.4g}' if isinstance(v, float) else f'{k} {v}' for k, v in side[s].items()))
A, B = side['A'], side['B']
primary = [B['over'] <= 0.7 * A['over'], B['within'] >= A['within']]
harm = [B['median'] <= A['median'] + 0.2, B['choice'] >= A['choice'] - 0.002,
        B['worst_ok'] >= A['worst_ok'] - 1]
print(f"primary: points over 10 % {B['over']} <= 0.7 x {A['over']} = {0.7 * A['over']:.1f}: {primary[0]}; "
      f"sweep-modes within 10 % {B['within']} >= {A['within']}: {primary[1]}")
print(f"no harm: median {B['median']:.2f} <= {A['median']:.2f} + 0.2: {harm[0]}; choice mean "
      f"{B['choice']:.4f} >= {A['choice']:.4f} - 0.002: {harm[1]}; worst >= 0.95 {B['worst_ok']} >= "
      f"{A['worst_ok']} - 1: {harm[2]}")
print('kept (default 40)' if all(primary + harm) else 'not kept (default stays 0)')
