# Run 183: issue 4's benchmarks per run (a: --drift-threshold=0.2, b: the default 0.1): the
# stationary paired ratios (goal >= 0.98), their drift events, two-phase (goals >= 0.97 of the
# per-phase best and >= 5 % faster than the best fixed n), continuous (goal >= 0.95).
#   cd docs/evidence/run183 && python3 issue4.py
import glob,re,statistics as st
for f in sorted(glob.glob('adaptive-all-*.txt')):
    t=open(f).read()
    blk=t.split('== stationary')[1].split('== two-phase')[0]
    p=[float(l.split()[7]) for l in blk.splitlines() if re.match(r'^\d+ +\d+ ',l)]
    r=float(re.search(r'adaptive / per-phase best = ([\d.]+)',t).group(1))
    m=re.search(r'adaptive is ([-\d.]+) % (faster|slower)',t)
    c=t.split('== continuous')[1]
    autos=[float(l.split()[5]) for l in c.splitlines() if re.match(r'^\d +auto',l)]
    drifts=len(re.findall(r'drift:',blk))
    print(f, 'stationary paired median %.4f min %.4f >=0.98: %d/6, drift events %d | two-phase %.4f of the per-phase best, %s %% faster than the best fixed n | continuous, best in flight, of the duplex bound %.3f'%(st.median(p),min(p),sum(x>=0.98 for x in p),drifts,r,m.group(1),max(autos)))
