# The calibrated prediction's points over 10 %, by the kind of n: n* (the n with the most samples
# in the adaptive run), an n the run visited, or one it never measured (from each sweep's log),
# per grid (symmetric or the others); the symmetric grid's visited misses are listed.
#   python3 docs/evidence/session40/visited.py SWEEP.csv.gz...   (each beside its .log.gz)
import csv,gzip,glob,re,sys
from collections import Counter
KEY=("workload","grid","in_bytes","out_bytes","intensity","order","issue")
def parse_log(p):
    # the header line gives workload grid in out intensity order issue; then "adaptive measured" line
    out={}; cur=None
    for line in gzip.open(p,'rt'):
        m=re.match(r'\s+(\S+)\s+(\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(streams|graph)\s+best',line)
        if m: cur=(m.group(1),m.group(2),float(m.group(3)),float(m.group(4)),m.group(5),m.group(6),m.group(7)); continue
        if cur and 'adaptive measured' in line:
            out[cur]={int(a):int(b) for a,b in re.findall(r'n=(\d+):(\d+)x',line)}
    return out
tally=Counter(); allc=Counter()
for sf in sys.argv[1:]:
    lf=sf.replace('.csv.gz','.log.gz')
    L=parse_log(lf)
    for r in csv.DictReader(gzip.open(sf,'rt')):
        k=(r['workload'],r['grid'],round(int(r['in_bytes'])/2**20,1),round(int(r['out_bytes'])/2**20,1),r['intensity'],r['order'],r['issue'])
        meas=None
        for kk,v in L.items():
            if kk[0]==k[0] and kk[1]==k[1] and abs(kk[2]-k[2])<0.06 and abs(kk[3]-k[3])<0.06 and kk[4]==k[4] and kk[5]==k[5] and kk[6]==k[6]: meas=v
        if meas is None: cls='nolog'
        else:
            n=int(r['streams']); star=max(meas,key=meas.get)
            cls='n*' if n==star else ('visited' if n in meas else 'unvisited')
        e=abs(float(r['pred_calibrated'])/float(r['median_ms'])-1)
        grid='sym' if r['grid']=='symmetric' else 'other'
        allc[(grid,cls)]+=1
        if e>0.1:
            tally[(grid,cls)]+=1
            if cls=="visited" and grid=="sym": print(sf.split("/")[-2], r["issue"][:3], r["order"][:5], r["intensity"], "n=",r["streams"], "star",star, "samples",meas.get(int(r["streams"])), "%+.1f%%"%(100*(float(r["pred_calibrated"])/float(r["median_ms"])-1)))
for k in sorted(allc): print(k, 'points',allc[k],'over 10%:',tally[k], '%.2f%%'%(100*tally[k]/allc[k]))
