# run: python3 docs/evidence/run196/judge_pair.py docs/evidence/run196/sweep-*.csv.gz
# The exact pair of session 35's --judge-anchor: each sweep's CSV holds the kept run's
# predictions and choice (the anchor judged); where the run kept without judging the anchor
# differs, the log's "adaptive anchor not judged" line gives that run's predictions and choice,
# on the same rounds. Per sweep-mode and in total: points over 10 %, max error, choice mean and
# worst (time at the chosen n / time at the best n), judged against not judged; and how many
# configurations were re-run for their anchor.
import csv, gzip, re, sys, collections
def parse(logf):
    L = gzip.open(logf, 'rt').read().split('\n'); pending = None; cfg = {}; reruns = 0
    for l in L:
        m = re.search(r'adaptive anchor not judged: run (\d+) kept instead, adaptive n=(\d+); predictions \(n:ms\):(.*)', l)
        if m:
            pending = (int(m[2]), {int(a): float(b) for a, b in re.findall(r'n=(\d+):([\d.eE+-]+)', m[3])})
            reruns += 1; continue
        h = re.match(r'  (\S+) +(\S+) +in .*intensity (\S+)\s+(\S+)\s+(\S+)', l)
        if h:
            cfg.setdefault((h[1], h[2], float(h[3]), h[4], h[5]), []).append(pending); pending = None
    return cfg, reruns
tot = collections.Counter(); choice = collections.defaultdict(list)
for f in sys.argv[1:]:
    cfg, reruns = parse(f.replace('.csv.gz', '.log.gz'))
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    seen = collections.defaultdict(list)
    for r in rows:
        k = (r['workload'], r['grid'], float(r['intensity']), r['order'], r['issue'])
        b = (r['in_bytes'], r['out_bytes'])
        if b not in seen[k]: seen[k].append(b)
    name = '/'.join(f.split('/')[-2:]).replace('.csv.gz', '')
    tot['reruns'] += reruns
    for mode in ('graph', 'streams'):
        ej, eu = [], []; groups = collections.defaultdict(list)
        for r in rows:
            if r['issue'] != mode: continue
            k = (r['workload'], r['grid'], float(r['intensity']), r['order'], r['issue'])
            idx = seen[k].index((r['in_bytes'], r['out_bytes']))
            other = cfg[k][idx]
            n = int(r['streams']); m = float(r['median_ms']); p = float(r['pred_calibrated'])
            pu = other[1][n] if other else p
            ej.append(abs(p / m - 1)); eu.append(abs(pu / m - 1))
            groups[(k, idx)].append((n, m, int(r['chosen_adaptive']), other[0] if other else int(r['chosen_adaptive'])))
        if not ej: continue
        cj, cu = [], []
        for g in groups.values():
            t = {n: m for n, m, _, _ in g}; best = min(t.values())
            cj.append(best / t[g[0][2]]); cu.append(best / t[g[0][3]])
        oj, ou = sum(e > .1 for e in ej), sum(e > .1 for e in eu)
        tot['modes'] += 1; tot['over_j'] += oj; tot['over_u'] += ou
        tot['met_j'] += max(ej) <= .1; tot['met_u'] += max(eu) <= .1
        tot['max_worse'] += max(ej) > max(eu) + .005
        choice['j'] += cj; choice['u'] += cu
        print(f'{name:18s} {mode:7s} judged: max {100*max(ej):5.1f} % ({oj:2d} over 10 %), choice mean {sum(cj)/len(cj):.4f} worst {min(cj):.3f}'
              f' | not judged: max {100*max(eu):5.1f} % ({ou:2d}), choice mean {sum(cu)/len(cu):.4f} worst {min(cu):.3f}')
    print(f'{name:18s} configurations whose kept run differs: {reruns}')
mj = sum(choice['j']) / max(1, len(choice['j'])); mu = sum(choice['u']) / max(1, len(choice['u']))
print(f"{tot['modes']} sweep-modes; configurations whose kept run differs {tot['reruns']}; points over 10 %: judged {tot['over_j']}, not judged {tot['over_u']};"
      f" max within 10 %: judged {tot['met_j']}, not judged {tot['met_u']}; sweep-modes whose max is over 0.5 points larger judged: {tot['max_worse']};"
      f" choice mean judged {mj:.4f}, not judged {mu:.4f}")
