# Points over 10 % of the calibrated prediction, by where they lie against the n the kept adaptive
# run measured (its log's "adaptive measured" line): at a measured n (and with how many samples),
# below every measured n (predicted from the anchor at n = 1; with the anchor's ratio to the
# rounds at n = 1 and whether the run re-measured), between measured n, or above them.
#   python3 docs/evidence/run189/classes.py docs/evidence/run187/sweep-*.csv.gz docs/evidence/run188/sweep-[0-9]*.csv.gz
import csv,gzip,sys,re,collections
def parse(f):
    L=gzip.open(f,'rt').read().split('\n'); pending=[]; cfg={}
    for i,l in enumerate(L):
        m=re.search(r'adaptive run \d+:.*?(, kept)?\), non-streamed / rounds at n=1 ([\d.]+)',l)
        if m: pending.append((m.group(1) is not None,float(m.group(2)))); continue
        h=re.match(r'  \S+ +\S+ +in .*intensity (\S+)\s+(\S+)\s+(\S+)',l)
        if h:
            kept=[p for p in pending if p[0]]; pending=[]
            meas={}; ev=''
            for j in range(i+1,min(i+9,len(L))):
                if 'adaptive measured' in L[j]:
                    meas={int(a):int(b) for a,b in re.findall(r'n=(\d+):(\d+)x',L[j])}
                if 'adaptive events' in L[j]: ev=L[j]
            cfg[(float(h[1]),h[2],h[3])]=(kept[-1][1] if kept else None, meas, bool(re.search(r'(drift|forced|mode)\w*:',ev)))
    return cfg
c=collections.Counter(); total=0
for f in sys.argv[1:]:
    cfg=parse(f.replace('.csv.gz','.log.gz'))
    for r in csv.DictReader(gzip.open(f,'rt')):
        e=float(r['pred_calibrated'])/float(r['median_ms'])-1
        if abs(e)<=0.1: continue
        total+=1
        anchor,meas,rem=cfg[(float(r['intensity']),r['order'],r['issue'])]
        n=int(r['streams']); sign='over' if e>0 else 'under'
        if n in meas and meas[n]>0: k='at a measured n, %s samples'%('<= 4' if meas[n]<=4 else '> 4')
        elif meas and n<min(meas): k='below every measured n, anchor %s, %s'%('over 1.1x' if anchor and anchor>1.1 else 'within 1.1x', 're-measured' if rem else 'initial')
        elif meas and n>max(meas): k='above every measured n'
        else: k='between measured n'
        c[(k,sign)]+=1
print('points over 10 %%: %d' % total)
for k,v in sorted(c.items()): print('  %-60s %-5s %d'%k[0:1]+(k[1],v) if False else '  %-62s %-5s %3d'%(k[0],k[1],v))
