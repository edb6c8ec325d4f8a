# Intensity 3000 of the symmetric sweeps: per issue mode and order the best n, the adaptive n, its
# ratio, and the best / measured ratio at n = 32, 64, 128.
#   python3 docs/evidence/run187/i3000.py docs/evidence/run187/sweep-*.csv.gz docs/evidence/run188/sweep-[0-9]*.csv.gz
import csv,gzip,sys,re,collections
for f in sys.argv[1:]:
    tag=re.search(r'(run\d+)/sweep-(\w+)\.csv',f).groups()
    rows=list(csv.DictReader(gzip.open(f,'rt')))
    cfg=collections.defaultdict(list)
    for r in rows:
        if float(r['intensity'])==3000: cfg[(r['issue'],r['order'])].append(r)
    out=[]
    for k,rs in sorted(cfg.items()):
        ms={int(r['streams']):float(r['median_ms']) for r in rs}
        best=min(ms,key=ms.get); ch=int(rs[0]['chosen_adaptive'])
        out.append('%s/%s best %d ch %d %.3f (32:%.3f 64:%.3f 128:%.3f)'%(k[0][:2],k[1][:5],best,ch,ms[best]/ms[ch],ms[best]/ms[32],ms[best]/ms[64],ms[best]/ms[128]))
    print(tag, '\n   '+'\n   '.join(out))
