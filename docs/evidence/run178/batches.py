# Run 178: every timed batch of instance_spread. A visit (one pipeline, one n, one round: three
# batches) over 6 % slower than that n's median over every pipeline and round: are the other
# pipelines' visits at that n in the same round slow too, is the same pipeline slow again in the
# next round, and are all three of its batches slow?
#   cd docs/evidence/run178 && python3 batches.py batches.csv.gz
import csv,gzip,sys,collections,statistics as st
R=list(csv.DictReader(gzip.open(sys.argv[1],'rt')))
# per (config, n): reference = median over all instances and rounds
by=collections.defaultdict(list)
for r in R: by[(r['iters'],r['order'],r['issue'],int(r['streams']))].append(r)
# per (config,n,round,instance): visit median ratio to (config,n) median
visits=collections.defaultdict(list)
for k,rows in by.items():
    ref=st.median(float(r['elapsed_ms']) for r in rows)
    vv=collections.defaultdict(list)
    for r in rows: vv[(int(r['round']),int(r['instance']))].append(float(r['elapsed_ms'])/ref)
    for (rd,i),x in vv.items(): visits[k].append((rd,i,st.median(x),min(x),max(x)))
# a visit slow (>6%): how many of the other instances' visits at the same n in the same round are also slow
slow=0; others_slow=[]; cnt=collections.Counter()
for k,v in visits.items():
    for rd,i,m,lo,hi in v:
        if m>1.06:
            slow+=1
            o=[mm for r2,i2,mm,_,_ in v if r2==rd and i2!=i]
            ns=sum(1 for mm in o if mm>1.06); others_slow.append(ns)
            cnt[(k[2],ns)]+=1
tot=sum(len(v) for v in visits.values())
print('visits',tot,'slow >6%:',slow,'; of their 3 same-round other-instance visits, how many slow too:',collections.Counter(others_slow))
print(sorted(cnt.items()))
# persistence: for a slow visit (instance i, n, round r), is instance i at n slow in round r+1?
nxt=collections.Counter()
for k,v in visits.items():
    d={(rd,i):m for rd,i,m,_,_ in v}
    for (rd,i),m in d.items():
        if m>1.06 and (rd+1,i) in d: nxt['next round same inst slow' if d[(rd+1,i)]>1.06 else 'next round same inst ok']+=1
        if m<=1.03 and (rd+1,i) in d: nxt['base: ok then slow' if d[(rd+1,i)]>1.06 else 'base: ok then ok']+=1
print(nxt)
# within-visit: are the 3 batches of a slow visit all slow?
w=collections.Counter()
for k,v in visits.items():
    for rd,i,m,lo,hi in v:
        if m>1.06: w['all 3 slow' if lo>1.06 else 'mixed']+=1
print(w)
