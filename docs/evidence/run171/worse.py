# The configurations where carry_anchor made a prediction worse by over 8 points of error: their
# events, their adaptive samples, and each moved point (carried / measured anchor).
#   python3 docs/evidence/run171/worse.py docs/evidence/run171/sweep-*.csv.gz
import csv,gzip,re,collections,sys
for f in sys.argv[1:]:
    L=gzip.open(f.replace('.csv.gz','.log.gz'),'rt').read().splitlines()
    groups=collections.OrderedDict()
    for r in csv.DictReader(gzip.open(f,'rt')):
        k=(r['workload'],r['grid'],r['in_bytes'],r['out_bytes'],r['intensity'],r['order'],r['issue'])
        groups.setdefault(k,[]).append(r)
    hdr=[i for i,l in enumerate(L) if re.search(r' best n=\d+ ',l)]
    for k,i in zip(groups,hdr):
        d=[]
        for r in groups[k]:
            m=float(r['median_ms']); a=float(r['pred_calibrated'])/m-1; b=float(r['pred_calibrated_measured_anchor'])/m-1
            if abs(a-b)>0.005: d.append((int(r['streams']),a,b))
        if d and max(abs(a)-abs(b) for n,a,b in d)>0.08:
            ev=[l for l in L[i:i+6] if 'adaptive events' in l]
            meas=[l for l in L[i:i+6] if 'adaptive measured' in l]
            print(f.split('/')[-1],k[0],k[1],int(k[2])>>20,int(k[3])>>20,k[4],k[5],k[6])
            print('   ',ev[0].split('n@batch):')[1].strip()[:300] if ev else '')
            print('   ',meas[0].split('ms):')[1].strip() if meas else '')
            print('   ',' '.join('n=%d %+.0f%%/%+.0f%%'%(n,100*a,100*b) for n,a,b in d))
