# Run 189's symmetric sweeps (the current code) per sweep-mode: the calibrated prediction's
# median and max error and points over 10 %, the adaptive choice's mean and worst ratio (best /
# chosen), its speed-up over n = 1, 4 and 8; and the totals.
#   python3 docs/evidence/run189/current.py docs/evidence/run189/sweep-*.csv.gz
import csv,gzip,sys,collections,statistics as st,re
allr=[];over=0;met=0;worst_met=0;modes=0
for f in sorted(sys.argv[1:],key=lambda x:int(re.search(r'sweep-(\d+)',x)[1])):
    rows=list(csv.DictReader(gzip.open(f,'rt')))
    for mode in ('graph','streams'):
        pts=[r for r in rows if r['issue']==mode]
        e=[abs(float(r['pred_calibrated'])/float(r['median_ms'])-1) for r in pts]
        cfg=collections.defaultdict(dict); ch={}
        for r in pts:
            k=(r['intensity'],r['order']); cfg[k][int(r['streams'])]=float(r['median_ms']); ch[k]=int(r['chosen_adaptive'])
        ratios=[min(v.values())/v[ch[k]] for k,v in cfg.items()]
        sp={m:st.mean(v[m]/v[ch[k]] for k,v in cfg.items()) for m in (1,4,8)}
        n=sum(x>0.1 for x in e); over+=n; modes+=1; met+=max(e)<=0.1; worst_met+=min(ratios)>=0.95
        allr+=ratios
        print('sweep %s %-7s median %.1f %%, max %5.1f %% (%d over 10 %%); choice mean %.4f, worst %.3f; speed-up over n=1 %.2fx, n=4 %.2fx, n=8 %.2fx'%(
            re.search(r'sweep-(\d+)',f)[1],mode,100*st.median(e),100*max(e),n,st.mean(ratios),min(ratios),sp[1],sp[4],sp[8]))
print('total: %d sweep-modes; max <= 10 %% in %d; points over 10 %% %d; choice mean %.4f, worst >= 0.95 in %d'%(modes,met,over,st.mean(allr),worst_met))
