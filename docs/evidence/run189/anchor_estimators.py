# Offline, on the traced runs 175-176: for the last re-measurement of each adaptive run whose n* stayed
# the same across it, the anchor at n = 1 by several estimators against the rounds at n = 1
# (m0, m1: the measurements before and at it; L0, L1: n*'s lower median before and after; B: n*'s
# last three batches before it).
#   cd docs/evidence && python3 run189/anchor_estimators.py
import csv,gzip,collections,statistics as st,sys
def lowmed(v):
    v=sorted(v); return v[(len(v)-1)//2]
res=collections.defaultdict(list)
runs=[("run175",8),("run176",5)]
for R,N in runs:
  for i in range(1,N+1):
    rounds={}
    for r in csv.DictReader(gzip.open(f'{R}/sweep-{i}.csv.gz','rt')):
        rounds[(float(r['intensity']),r['order'],r['issue'],int(r['streams']))]=float(r['median_ms'])
    tr=collections.defaultdict(list)
    for r in csv.DictReader(gzip.open(f'{R}/trace-{i}.csv.gz','rt')):
        tr[(float(r['intensity']),r['order'],r['issue'],r['adaptive_run'])].append(r)
    for k,bs in tr.items():
        ms=[j for j,b in enumerate(bs) if b['kind']=='measure']
        if len(ms)<2: continue
        j1=ms[-1]; j0=ms[-2]
        st_b=[b for b in bs[j0+1:j1] if b['kind']=='streamed' and b['settled']=='1']
        st_a=[b for b in bs[j1+1:] if b['kind']=='streamed' and b['settled']=='1']
        if len(st_b)<3 or len(st_a)<8: continue
        nb=int(st_b[-1]['streams']); na=collections.Counter(int(b['streams']) for b in st_a).most_common(1)[0][0]
        if nb!=na: continue
        e=lambda b: float(b['elapsed_ms'])
        m0=e(bs[j0]); m1=e(bs[j1])
        L0=lowmed([e(b) for b in st_b if int(b['streams'])==nb][-32:])
        B=st.median([e(b) for b in st_b if int(b['streams'])==nb][-3:])
        L1=lowmed([e(b) for b in st_a if int(b['streams'])==nb][-32:])
        truth=rounds[k[:3]+(1,)]
        E={'m1 (now)':m1,'m0*L1/L0':m0*L1/L0,'m1*L1/B':m1*L1/B,
           'min(m1,m0*L1/L0)':min(m1,m0*L1/L0),
           'median3':st.median([m1,m0*L1/L0,m1*L1/B]),
           'm1*min(1,L1/B)':m1*min(1,L1/B),
           'm1 if m1/m0<=L1/L0*1.1 else m0*L1/L0': m1 if m1/m0 <= 1.1*L1/L0 else m0*L1/L0}
        for name,v in E.items(): res[name].append(v/truth-1)
for name,v in res.items():
    a=[abs(x) for x in v]
    print('%-40s n=%d median |err| %.3f, >10%%: %d (over %d, under %d), max %.2f' % (name,len(v),st.median(a),sum(x>0.1 for x in a),sum(x>0.1 for x in v),sum(x<-0.1 for x in v),max(a)))
