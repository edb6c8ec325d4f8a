# visits.py's visits, bucketed by their time over the rounds' and by their host issue time over the
# rounds': python3 docs/evidence/run161/visits_issue.py FOLDER... (run from the repository root)
exec(open('/work/main/docs/evidence/run161/visits.py').read().split("import math")[0])
import math
vs=[o for o in out if not o['nstar'] and not math.isnan(o['iss_ratio'])]
for lo,hi in ((0,0.9),(0.9,0.95),(0.95,1.05),(1.05,1.10),(1.10,9)):
    b=[o for o in vs if lo<=o['ratio']<hi]
    if b:
        ir=sorted(o['iss_ratio'] for o in b)
        print('visit/rounds in [%.2f,%.2f): %4d visits, issue ratio median %.3f, share with issue >1.10: %.2f'%(lo,hi,len(b),ir[len(ir)//2],sum(x>1.10 for x in ir)/len(ir)))
# conversely: visits with issue ratio > 1.15: share of time ratio > 1.10
for lo,hi in ((0,0.9),(0.9,1.1),(1.1,1.2),(1.2,9)):
    b=[o for o in vs if lo<=o['iss_ratio']<hi]
    if b: print('issue ratio [%.2f,%.2f): %4d visits, time >1.10: %d (%.1f %%), time >1.05: %.1f %%'%(lo,hi,len(b),sum(o['ratio']>1.1 for o in b),100*sum(o['ratio']>1.1 for o in b)/len(b),100*sum(o['ratio']>1.05 for o in b)/len(b)))
