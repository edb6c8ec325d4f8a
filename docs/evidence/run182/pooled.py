# Runs 182-183: pooled over each side's sweeps (a: --drift-threshold=0.2, b: the default), the
# calibrated error's median and points over 10 % per issue mode, and the adaptive choice (best
# time / time at the chosen n) per configuration: mean, worst, how many under 0.95.
#   cd docs/evidence/run182 && python3 pooled.py     (or from run183)
import csv,gzip,glob,statistics as st,collections
for side in 'ab':
    e=collections.defaultdict(list); ch=collections.defaultdict(list)
    for f in sorted(glob.glob(f'sweep-*{side}.csv.gz')):
        rows=list(csv.DictReader(gzip.open(f,'rt')))
        cfg=collections.defaultdict(list)
        for r in rows:
            e[r['issue']].append(abs(float(r['pred_calibrated'])/float(r['median_ms'])-1))
            cfg[(r['intensity'],r['order'],r['issue'])].append(r)
        for k,rs in cfg.items():
            best=min(float(r['median_ms']) for r in rs)
            c=[float(r['median_ms']) for r in rs if int(r['streams'])==int(r['chosen_adaptive'])]
            if c: ch[k[2]].append(best/c[0])
    for m in ('graph','streams'):
        print(side, m, 'points %d median %.2f %% over 10 %%: %d; choice mean %.4f, worst %.3f, under 0.95: %d of %d' % (
            len(e[m]), 100*st.median(e[m]), sum(x>0.1 for x in e[m]), st.mean(ch[m]), min(ch[m]), sum(x<0.95 for x in ch[m]), len(ch[m])))
