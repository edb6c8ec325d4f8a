# run: python3 docs/evidence/run191/anchor_profile.py docs/evidence/run189/sweep-*.log.gz docs/evidence/run190/sweep-*.log.gz docs/evidence/run191/sweep-*.log.gz
# (the profile's values are docs/evidence/run117/h100.toml's, the profile every sweep here ran with)
# Each kept adaptive run's non-streamed measurement (the anchor at n = 1): its copy parts against
# the rounds' parts and against the device profile's copy model (L + bytes * G), and its total
# against the rounds at n = 1.
import gzip,re,sys,collections
G_in,L_in,G_out,L_out=2.0246430407102139e-08,0.00448,1.8415616081499873e-08,0.003808
rows=[]
for f in sys.argv[1:]:
    L=gzip.open(f,'rt').read().split('\n')
    for i,l in enumerate(L):
        h=re.match(r'  (\S+) +(\S+) +in +([\d.]+) (\w+) out +([\d.]+) (\w+) +intensity (\S+)\s+(\S+)\s+(\S+)',l)
        if not h: continue
        unit={'KiB':1024,'MiB':1<<20,'GiB':1<<30,'B':1}
        bin_=float(h[3])*unit[h[4]]; bout=float(h[5])*unit[h[6]]
        ref=parts=ratio=None
        for j in range(i+1,min(i+10,len(L))):
            if re.match(r'  \S+ +\S+ +in ',L[j]): break
            m=re.search(r'adaptive reference: ([\d.]+) ms \(parts h2d ([\d.]+) kernel ([\d.]+) d2h ([\d.]+).*rounds at n=1 ([\d.]+) ms',L[j])
            if m: ref=[float(x) for x in m.groups()]; ratio=ref[0]/ref[4]
            m=re.search(r'non-streamed parts, ms.*?h2d ([\d.]+) .*?kernel ([\d.]+) .*?d2h ([\d.]+)',L[j])
            if m: parts=[float(x) for x in m.groups()]
        if ref and parts and ratio:
            ph=L_in+bin_*G_in; pd=L_out+bout*G_out
            rows.append((f.split('/')[-2]+'/'+f.split('/')[-1][6:-7],h[1],h[7],h[8][:5],h[9],ratio,ref[1]/parts[0],ref[3]/parts[2],ref[1]/ph,ref[3]/pd,parts[0]/ph,parts[2]/pd))
print('anchors',len(rows))
for lo,hi in ((0,1.05),(1.05,1.1),(1.1,9)):
    sel=[r for r in rows if lo<=r[5]<hi]
    if not sel: continue
    mx=lambda k: max(r[k] for r in sel)
    print(f'anchor/rounds {lo}-{hi}: {len(sel)}; h2d/rounds max {mx(6):.2f}, d2h/rounds max {mx(7):.2f}; h2d/profile max {mx(8):.2f}, d2h/profile max {mx(9):.2f}')
print('rounds parts / profile: h2d %.2f-%.2f, d2h %.2f-%.2f'%(min(r[10] for r in rows),max(r[10] for r in rows),min(r[11] for r in rows),max(r[11] for r in rows)))
for thr in (1.1,1.2,1.3,1.5):
    flag=[r for r in rows if max(r[8],r[9])>thr]
    print(f'copies over {thr}x the profile: {len(flag)} anchors, of them over 1.1x the rounds: {sum(r[5]>1.1 for r in flag)}; anchors over 1.1x not flagged: {sum(r[5]>1.1 and max(r[8],r[9])<=thr for r in rows)}')
for r in rows:
    if r[5]>1.1: print('  ',r[:5],'ratio %.3f h2d/rounds %.2f d2h/rounds %.2f h2d/prof %.2f d2h/prof %.2f'%r[5:10])
