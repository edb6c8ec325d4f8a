# Run 175's traced adaptive runs (--adaptive-trace), each batch's time over the rounds' median at its n.
# First: per issue mode, position in a visit (0 = the unsettled first batch), and the 4 batches after
# a visit; then the visits whose lower sample is over 8 % off, with the batches around them.
#   cd docs/evidence/run175 && python3 visits.py 1 2 3 4 5 6 7 8
import csv,gzip,sys,statistics as st,collections
# For each sweep i: trace + csv; for each config-mode, each visit (explore batches in a row at one n), list batch times / rounds median at n
def key(r): return (r['workload'],r['in_bytes'],r['out_bytes'],r['intensity'],r['order'],r['issue'])
pos=collections.defaultdict(list)  # (issue, position in visit) -> ratios
after=collections.defaultdict(list)
allv=[]
for i in sys.argv[1:]:
    med={}
    for r in csv.DictReader(gzip.open(f'sweep-{i}.csv.gz','rt')): med[key(r)+(int(r['streams']),)]=float(r['median_ms'])
    T=collections.OrderedDict()
    for r in csv.DictReader(gzip.open(f'trace-{i}.csv.gz','rt')): T.setdefault(key(r),[]).append(r)
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
                ratios=[float(x['elapsed_ms'])/m for x in run]
                sett=[x['settled'] for x in run]
                for p,(x,s) in enumerate(zip(ratios,sett)): pos[(k[5],p,s)].append(x)
                # the n* batches after
                aft=rows[j:j+4]
                for p,x in enumerate(aft):
                    mm=med.get(k+(int(x['streams']),))
                    if mm: after[(k[5],p,x['settled'])].append(float(x['elapsed_ms'])/mm)
                allv.append((i,k,n,ratios,sett,int(run[0]['batch'])))
            else: j+=1
for kk in sorted(pos): v=pos[kk]; print('visit pos',kk,len(v),'median %.3f p90 %.3f max %.3f'%(st.median(v),sorted(v)[int(.9*len(v))],max(v)))
for kk in sorted(after): v=after[kk]; print('after visit',kk,len(v),'median %.3f p90 %.3f'%(st.median(v),sorted(v)[int(.9*len(v))]))
print()
for i,k,n,ratios,sett,b in allv:
    lm=min(ratios[1:]) if len(ratios)>1 else ratios[0]
    if abs(lm-1)>0.08: print(i,k[3],k[4][:6],k[5],'n=%d'%n,'batch %d'%b,' '.join('%.3f%s'%(x,'' if s=='1' else '*') for x,s in zip(ratios,sett)))
