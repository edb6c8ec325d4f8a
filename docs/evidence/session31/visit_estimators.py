# Session 31: a visit's estimate from its batches in the traced adaptive runs (runs 175-176),
# each against the rounds' median at that n: the lower median of the two settled samples (the
# controller's), their mean, the median / min / mean of three with the unsettled first batch.
#   python3 docs/evidence/session31/visit_estimators.py docs/evidence/run175/trace-*.csv.gz
import csv,gzip,collections,statistics as st,sys
def key(r): return (r['workload'],r['in_bytes'],r['out_bytes'],r['intensity'],r['order'],r['issue'])
vis=[]
for path in sys.argv[1:]:
    d,i=path.rsplit('/',1)[0],path.rsplit('-',1)[1].split('.')[0]
    med={}
    for r in csv.DictReader(gzip.open(f'{d}/sweep-{i}.csv.gz','rt')): med[key(r)+(int(r['streams']),)]=float(r['median_ms'])
    T=collections.OrderedDict()
    for r in csv.DictReader(gzip.open(path,'rt')): T.setdefault(key(r),[]).append(r)
    for k,rows in T.items():
        j=0
        while j<len(rows):
            r=rows[j]
            if r['kind']=='explore':
                n=int(r['streams']); run=[]
                while j<len(rows) and rows[j]['kind']=='explore' and int(rows[j]['streams'])==n:
                    run.append(rows[j]); j+=1
                m=med.get(k+(n,))
                if not m: continue
                first=[float(x['elapsed_ms'])/m for x in run if x['settled']!='1']
                s=[float(x['elapsed_ms'])/m for x in run if x['settled']=='1']
                if len(s)==2 and len(first)==1: vis.append((first[0],s,k[5]))
            else: j+=1
q=lambda v,p: sorted(v)[int(p*(len(v)-1))]
ests={'min of 2 settled (now)':lambda f,s:min(s),'median of 2 settled':lambda f,s:st.mean(s),
      'median of 3 (first too)':lambda f,s:st.median([f]+s),'min of 3':lambda f,s:min([f]+s),'mean of 3':lambda f,s:st.mean([f]+s)}
print('visits',len(vis))
for name,fn in ests.items():
    v=[fn(f,s) for f,s,_ in vis]
    print('%-26s p1 %.3f p5 %.3f p50 %.3f p95 %.3f p99 %.3f  off>8%%: %3d (fast %3d slow %3d)  off>10%%: %3d'%(name,q(v,.01),q(v,.05),q(v,.5),q(v,.95),q(v,.99),sum(abs(x-1)>.08 for x in v),sum(x<.92 for x in v),sum(x>1.08 for x in v),sum(abs(x-1)>.1 for x in v)))
