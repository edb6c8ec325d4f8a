# run: python3 docs/evidence/run190/visits.py docs/evidence/run189
import csv,gzip,glob,sys,collections,statistics as st
# explore samples vs rounds' median at that n, by n and position in the visit
res=collections.defaultdict(list)
for d in sys.argv[1:]:
  for tf in sorted(glob.glob(d+'/trace-*.csv.gz')):
    sf=tf.replace('trace-','sweep-')
    rounds={}
    for r in csv.DictReader(gzip.open(sf,'rt')):
        rounds[(r['intensity'],r['order'],r['issue'],int(r['streams']))]=(float(r['median_ms']),float(r['p90_ms']))
    prev=None; pos=0
    for r in csv.DictReader(gzip.open(tf,'rt')):
        n=int(r['streams']); k=r['kind']
        key=(r['intensity'],r['order'],r['issue'],n)
        if key not in rounds: continue
        if (k,n)!=prev: pos=0
        prev=(k,n); pos+=1
        if r['settled']!='1': continue
        ratio=float(r['elapsed_ms'])/rounds[key][0]
        res[(k,n,min(pos,4))].append(ratio)
for k in sorted(res):
    v=res[k]
    if len(v)<10: continue
    print(k, len(v), 'median %.3f  >1.05: %4.1f%%  >1.10: %4.1f%%'%(st.median(v),100*sum(x>1.05 for x in v)/len(v),100*sum(x>1.1 for x in v)/len(v)))
