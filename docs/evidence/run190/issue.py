# run: python3 docs/evidence/run190/issue.py docs/evidence/run189
# Per issue mode, n, kind of batch (explore, streamed, measure) and position in its stretch (1-3, 4 = later):
# the traced batches' issue time and elapsed time against the rounds' at that point, median and p90.
import csv,gzip,glob,sys,collections,statistics as st
res=collections.defaultdict(list)
for d in sys.argv[1:]:
  for tf in sorted(glob.glob(d+'/trace-*.csv.gz')):
    sf=tf.replace('trace-','sweep-')
    rounds={}
    for r in csv.DictReader(gzip.open(sf,'rt')):
        rounds[(r['intensity'],r['order'],r['issue'],int(r['streams']))]=(float(r['issue_ms']),float(r['median_ms']))
    prev=None;pos=0
    for r in csv.DictReader(gzip.open(tf,'rt')):
        n=int(r['streams']); key=(r['intensity'],r['order'],r['issue'],n)
        if key not in rounds or n==1: continue
        k=r['kind']
        if (k,n)!=prev: pos=0
        prev=(k,n); pos+=1
        res[(r['issue'],n,k,min(pos,4))].append((float(r['issue_ms'])/rounds[key][0], float(r['elapsed_ms'])/rounds[key][1]))
for k in sorted(res):
    v=res[k]
    if len(v)<8: continue
    a=[x[0] for x in v]; b=[x[1] for x in v]
    print(k,len(v),'issue/rounds median %.2f p90 %.2f max %.2f | elapsed/rounds median %.3f p90 %.3f'%(st.median(a),sorted(a)[int(.9*len(a))],max(a),st.median(b),sorted(b)[int(.9*len(b))]))
