# Run 192: the points whose prediction the anchor check moved (by over 0.01 %), how their error
# from the median changed (improved / worsened, by how much), and the kept runs' anchors
# against the rounds at n = 1 with and without the check.
#   python3 docs/evidence/run192/moved.py docs/evidence/run192/sweep-*.csv.gz
import csv, gzip, re, sys, statistics as st
sys.argv, files = sys.argv[:1], sys.argv[1:]
exec(open(__file__.replace('moved.py', 'pair.py')).read().split('tot = {')[0])
d = []; anchors = []
for f in files:
    fa = first_anchor(f.replace('.csv.gz', '.log.gz'))
    for l in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = re.search(r'adaptive reference: ([\d.]+) ms .*rounds at n=1 ([\d.]+) ms', l)
        if m: ref, one = float(m[1]), float(m[2])
        m = re.search(r'adaptive anchor check: ([\d.]+) ms', l)
        if m: anchors.append((ref / one, min(ref, float(m[1])) / one))
    for r in csv.DictReader(gzip.open(f, 'rt')):
        key = (r['workload'], r['grid'], '%.1f' % (float(r['in_bytes']) / 2**20),
               '%.1f' % (float(r['out_bytes']) / 2**20), float(r['intensity']), r['order'], r['issue'])
        pc = float(r['pred_calibrated']); pf = fa[key][int(r['streams'])] if key in fa else pc
        m = float(r['median_ms'])
        if abs(pc / pf - 1) > 1e-4: d.append(abs(pc / m - 1) - abs(pf / m - 1))
print(f'points moved: {len(d)}; error smaller at {sum(x < 0 for x in d)}, larger at {sum(x > 0 for x in d)}; '
      f'change median {100*st.median(d):+.2f} pp, mean {100*st.mean(d):+.3f} pp, from {100*min(d):+.2f} to {100*max(d):+.2f} pp')
for lo, hi in ((0, 1.02), (1.02, 1.05), (1.05, 1.1), (1.1, 9)):
    s = [a for a in anchors if lo <= a[0] < hi]
    if s: print(f'anchors {lo}-{hi}x the rounds: {len(s)}; with the check: median {st.median(a[1] for a in s):.3f}, max {max(a[1] for a in s):.3f}')
