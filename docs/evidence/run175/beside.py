# Visits over 8 % off and ok, against whether the 4 batches before and after (n*'s) sat over 5 % off.
# With one sweep number, also each off visit: 4 before | the visit (* unsettled) | 4 after.
#   cd docs/evidence/run175 && python3 beside.py 1 2 3 4 5 6 7 8
import csv,gzip,sys,collections
def key(r): return (r['workload'],r['in_bytes'],r['out_bytes'],r['intensity'],r['order'],r['issue'])
tot=collections.Counter()
for i in sys.argv[1:]:
    med={}
    for r in csv.DictReader(gzip.open(f'sweep-{i}.csv.gz','rt')): med[key(r)+(int(r['streams']),)]=float(r['median_ms'])
    T=collections.OrderedDict()
    for r in csv.DictReader(gzip.open(f'trace-{i}.csv.gz','rt')): T.setdefault(key(r),[]).append(r)
    for k,rows in T.items():
        rat=[float(x['elapsed_ms'])/med[k+(int(x['streams']),)] if k+(int(x['streams']),) in med else float('nan') for x in rows]
        j=0
        while j<len(rows):
            if rows[j]['kind']=='explore':
                n=int(rows[j]['streams']); s=j
                while j<len(rows) and rows[j]['kind']=='explore' and int(rows[j]['streams'])==n: j+=1
                v=[rat[t] for t in range(s,j) if rows[t]['settled']=='1']
                if not v: continue
                lm=min(v); 
                bef=[rat[t] for t in range(max(0,s-4),s)]; aft=[rat[t] for t in range(j,min(len(rows),j+4))]
                cls='off' if abs(lm-1)>0.08 else 'ok'
                import statistics as st
                nb=st.median(bef+aft) if bef+aft else float('nan')
                tot[(cls, 'beside off' if abs(nb-1)>0.05 else 'beside ok')]+=1
                if cls=='off' and len(sys.argv)<3:
                    print(i,k[3],k[4][:6],k[5],'n=%d'%n,' '.join('%.2f'%x for x in bef),'|',' '.join('%.2f%s'%(rat[t],'' if rows[t]['settled']=='1' else '*') for t in range(s,j)),'|',' '.join('%.2f'%x for x in aft))
            else: j+=1
print(tot)
