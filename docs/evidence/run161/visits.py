# Each configuration-mode's adaptive samples (the log's "adaptive measured" line: n, samples, their
# time) against the rounds' median at that n (the CSV), for the sweeps under each folder given:
# how often a visit (n other than n*) is off by more than 10 %, and the points over 10 % of the
# configurations with such a visit.  python3 docs/evidence/run161/visits.py FOLDER...
import csv,gzip,glob,re,collections,sys,statistics as st
out=[]
for d in sys.argv[1:]:
  for f in sorted(glob.glob(d+'/sweep-*.csv.gz')):
    lg=f.replace('.csv.gz','.log.gz')
    try: L=gzip.open(lg,'rt').read().splitlines()
    except Exception: continue
    groups=collections.OrderedDict()
    for r in csv.DictReader(gzip.open(f,'rt')):
        k=(r['workload'],r['in_bytes'],r['out_bytes'],r['intensity'],r['order'],r['issue'])
        groups.setdefault(k,[]).append(r)
    keys=list(groups)
    hdr=[i for i,l in enumerate(L) if re.search(r' best n=\d+ ',l)]
    if len(hdr)!=len(keys): print('mismatch',f,len(hdr),len(keys)); continue
    for k,i in zip(keys,hdr):
        rows={int(r['streams']):r for r in groups[k]}
        nstar=int(re.search(r'adaptive n=(\d+)',L[i]).group(1))
        meas=[l for l in L[i:i+6] if 'adaptive measured' in l]
        if not meas: continue
        for m in re.finditer(r'n=(\d+):(\d+)x([\d.]+)/([\d.]+)',meas[0]):
            n,cnt,ms,iss=int(m.group(1)),int(m.group(2)),float(m.group(3)),float(m.group(4))
            if n not in rows: continue
            r=rows[n]; rm=float(r['median_ms'])
            err=[abs(float(x['pred_calibrated'])/float(x['median_ms'])-1) for x in groups[k]]
            out.append(dict(f=f,k=k,n=n,cnt=cnt,ratio=ms/rm,iss_ratio=iss/float(r['issue_ms']) if float(r['issue_ms'])>0 else float('nan'),nstar=(n==nstar),over=sum(e>0.1 for e in err),maxerr=max(err),mode=k[5],bound=float(r['issue_ms'])/rm))
import math
for mode in ('streams','graph'):
  for ns in (True,False):
    v=[o['ratio'] for o in out if o['mode']==mode and o['nstar']==ns]
    print(mode,'n*' if ns else 'visit',len(v),'median %.3f'%st.median(v),'>1.10: %d'%sum(x>1.10 for x in v),'<0.90: %d'%sum(x<0.9 for x in v))
# configs with a visited n off by >10%: their over-10% points
cfg=collections.defaultdict(lambda:[0,0,0])
for o in out:
    c=cfg[(o['f'],o['k'])]; c[1]=o['over']
    if not o['nstar'] and abs(o['ratio']-1)>0.10: c[0]=1
    if not o['nstar'] and abs(o['ratio']-1)>0.05: c[2]=1
a=[v for v in cfg.values() if v[0]]; b=[v for v in cfg.values() if not v[0]]
print('configs with a visit off >10%%: %d, their points over 10%%: %d; others %d, %d'%(len(a),sum(v[1] for v in a),len(b),sum(v[1] for v in b)))
a=[v for v in cfg.values() if v[2]]; b=[v for v in cfg.values() if not v[2]]
print('configs with a visit off >5%%: %d, their points over 10%%: %d; others %d, %d'%(len(a),sum(v[1] for v in a),len(b),sum(v[1] for v in b)))
print('visits off >10% (non-n*): samples count distribution', collections.Counter(o['cnt'] for o in out if not o['nstar'] and o['ratio']>1.10))
print('all visits: samples count distribution', collections.Counter(min(o['cnt'],9) for o in out if not o['nstar']))
