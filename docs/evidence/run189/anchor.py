# Question 1 of run 189: each kept adaptive run's last non-streamed measurement (the anchor at
# n = 1) against the rounds at n = 1: its time, and its parts' sum against the rounds' parts
# (the sweep's "non-streamed parts" medians), per configuration; where the anchor is over 1.1x,
# is the excess in the parts or between them?
#   python3 docs/evidence/run189/anchor.py docs/evidence/run189/sweep-*.log.gz
import gzip,re,sys,statistics as st
rows=[]
for f in sys.argv[1:]:
    L=gzip.open(f,'rt').read().split('\n')
    for i,l in enumerate(L):
        h=re.match(r'  \S+ +\S+ +in .*intensity (\S+)\s+(\S+)\s+(\S+)',l)
        if not h: continue
        ref=parts=ev=None
        for j in range(i+1,min(i+9,len(L))):
            m=re.search(r'adaptive reference: ([\d.]+) ms \(parts h2d ([\d.]+) kernel ([\d.]+) d2h ([\d.]+), sum ([\d.]+); issue ([\d.]+)\), rounds at n=1 ([\d.]+)',L[j])
            if m: ref=[float(x) for x in m.groups()]
            m=re.search(r'non-streamed parts, ms .*h2d ([\d.]+) \(.*kernel ([\d.]+) \(.*d2h ([\d.]+) \(',L[j])
            if m: parts=[float(x) for x in m.groups()]
            if 'adaptive events' in L[j]: ev=L[j]
        if ref and parts:
            remeasured=bool(re.search(r'(drift|forced|mode)\w*:',ev or ''))
            rows.append((f.split('/')[-1][:-7],h[1],h[2],h[3],ref,parts,remeasured))
print('%d configurations' % len(rows))
for lab,sel in (('initial',lambda r: not r[6]),('re-measured',lambda r: r[6])):
    v=[r[4][0]/r[4][6] for r in rows if sel(r)]
    if v: print('%-12s %3d: anchor / rounds at n=1 median %.3f, over 1.1x %d, under 0.9x %d' % (lab,len(v),st.median(v),sum(x>1.1 for x in v),sum(x<0.9 for x in v)))
print('anchors over 1.05x the rounds at n=1:')
for r in rows:
    ref,parts=r[4],r[5]
    if ref[0]/ref[6]>1.05:
        print('  %s %5s %-17s %-7s %s anchor %.3f | parts sum / rounds parts %.3f (h2d %.3f kernel %.3f d2h %.3f) | time between parts %.3f ms' % (
            r[0],r[1],r[2],r[3],'re-measured' if r[6] else 'initial    ',ref[0]/ref[6],ref[4]/sum(parts),ref[1]/parts[0],ref[2]/parts[1],ref[3]/parts[2],ref[0]-ref[4]))
