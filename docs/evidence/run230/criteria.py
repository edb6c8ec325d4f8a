# Run 230's rule (run.sh), A against B, from the run's outputs.
#   python3 docs/evidence/run230/criteria.py
import collections, csv, glob, gzip, os, re, statistics

D = 'docs/evidence/run230'

def modes(path):
    rows = list(csv.DictReader(gzip.open(path, 'rt')))
    out = []
    for mode in ('graph', 'streams'):
        R = [r for r in rows if r['issue'] == mode]
        e = [abs(float(r['pred_calibrated']) / float(r['median_ms']) - 1) for r in R]
        g = collections.defaultdict(list)
        for r in R:
            g[(r['workload'], r['grid'], r['in_bytes'], r['out_bytes'], r['intensity'],
               r['order'])].append(r)
        ch = []
        for v in g.values():
            t = {int(r['streams']): float(r['median_ms']) for r in v}
            ch.append(min(t.values()) / t[int(v[0]['chosen_adaptive'])])
        out.append(dict(name=os.path.basename(path)[6:-7] + ' ' + mode, over=sum(x > .1 for x in e),
                        max=max(e), median=statistics.median(e), mean=sum(ch) / len(ch),
                        worst=min(ch)))
    return out

# The whole grids, and the symmetric sweeps whose A and B both completed.
names = ['all'] + sorted({os.path.basename(p)[6:-7] for p in glob.glob(f'{D}/A/sweep-[0-9]*.csv.gz')
                          if os.path.exists(p.replace('/A/', '/B/'))}, key=int)
side = {}
for s in 'AB':
    m = [x for n in names if os.path.exists(f'{D}/{s}/sweep-{n}.csv.gz')
         for x in modes(f'{D}/{s}/sweep-{n}.csv.gz')]
    for x in m:
        print(f"{s} {x['name']:12s} median {100 * x['median']:4.1f} %  max {100 * x['max']:5.1f} % "
              f"({x['over']:2d})  choice {x['mean']:.3f} / {x['worst']:.3f}")
    side[s] = dict(modes=len(m), over=sum(x['over'] for x in m), within=sum(x['max'] <= .1 for x in m),
                   choice=statistics.mean(x['mean'] for x in m),
                   worst_ok=sum(x['worst'] >= .95 for x in m))

def issue4(s):
    t = open(f'{D}/{s}/adaptive-all-1.txt').read()
    block = t.split('== stationary')[1].split('== two-phase')[0]
    paired = statistics.median(float(l.split()[7]) for l in block.splitlines()
                               if re.match(r'^\d+ +\d+ ', l))
    two = float(re.search(r'adaptive / per-phase best = ([\d.]+)', t).group(1))
    cont = max(float(l.split()[5]) for l in t.split('== continuous')[1].splitlines()
               if re.match(r'^\d +auto', l))
    return paired, two, cont

A, B = side['A'], side['B']
ok = []
ok.append(B['modes'] == A['modes'] and B['over'] <= A['over'])
ok.append(B['within'] >= A['within'])
print(f"sweeps {names}: sweep-modes {A['modes']} / {B['modes']}")
print(f"primary: points over 10 % B {B['over']} <= A {A['over']}: {ok[0]}; sweep-modes within 10 % "
      f"B {B['within']} >= A {A['within']}: {ok[1]}")
ok.append(B['choice'] >= A['choice'] - 0.002)
ok.append(B['worst_ok'] >= A['worst_ok'] - 1)
print(f"choice: mean B {B['choice']:.4f} >= A {A['choice']:.4f} - 0.002: {ok[2]}; worst >= 0.95 "
      f"B {B['worst_ok']} >= A {A['worst_ok']} - 1: {ok[3]}")
try:
    (pa, ta, ca), (pb, tb, cb) = issue4('A'), issue4('B')
    ok += [pb >= pa - 0.01, tb >= ta - 0.02, cb >= ca - 0.03]
    print(f"issue 4: stationary paired median B {pb:.4f} >= A {pa:.4f} - 0.01: {ok[4]}; two-phase "
          f"B {tb:.4f} >= A {ta:.4f} - 0.02: {ok[5]}; continuous B {cb:.3f} >= A {ca:.3f} - 0.03: {ok[6]}")
except (OSError, IndexError, AttributeError, ValueError) as e:
    ok.append(False)
    print(f'issue 4: missing or unreadable ({e}): not met')
print('all met: the default becomes 40' if all(ok) else 'not all met: the default stays 0')
