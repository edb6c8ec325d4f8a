# Offline: the option as if made a threshold (a point keeps the prediction without it where the two
# differ by under DELTA), per DELTA: points over 10 % (whole grid, symmetric grid) with / without,
# moved points and those moved toward the rounds, maxima larger / smaller, per-sweep-mode medians.
#   python3 docs/evidence/run174/threshold.py docs/evidence/run17[34]/sweep-*.csv.gz
import csv,gzip,sys,statistics as st
files=sys.argv[1:]
for d in (0,0.02,0.03,0.05,0.08):
    over=[0,0]; overs=[0,0]; moved=closer=0; larger=smaller=0; meds=[]
    for f in files:
        rows=list(csv.DictReader(gzip.open(f,'rt')))
        for mode in ('graph','streams'):
            pts=[r for r in rows if r['issue']==mode]
            ea=[];eb=[]
            for r in pts:
                m=float(r['median_ms']); a=float(r['pred_calibrated']); b=float(r['pred_calibrated_all_star'])
                if abs(a/b-1)<d: a=b
                ea.append(abs(a/m-1)); eb.append(abs(b/m-1))
                if abs(a/b-1)>0.005:
                    moved+=1; closer+=abs(a/m-1)<abs(b/m-1)
                if r['grid']=='symmetric':
                    overs[0]+=abs(a/m-1)>0.1; overs[1]+=abs(b/m-1)>0.1
            over[0]+=sum(x>0.1 for x in ea); over[1]+=sum(x>0.1 for x in eb)
            larger+=max(ea)>max(eb)+1e-9; smaller+=max(ea)<max(eb)-1e-9
            meds.append((st.median(ea)*100,st.median(eb)*100))
    print(f"delta {d:.2f}: over10 whole {over[0]} vs {over[1]}, sym {overs[0]} vs {overs[1]}; moved {moved} closer {closer}; max larger {larger} smaller {smaller}; medians", ' '.join('%.1f/%.1f'%m for m in meds))
