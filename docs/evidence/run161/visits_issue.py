# visits.py's visits (n other than n*), bucketed by their time over the rounds' and by their host
# issue time over the rounds', then the device-bound visits alone (the rounds' issue time under
# 0.7 of their time: a host-bound visit's time is its issue time).
#   python3 docs/evidence/run161/visits_issue.py FOLDER...   (from the repository root)
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
g = {}
sys.stdout, real = open(os.devnull, 'w'), sys.stdout
exec(open(os.path.join(here, 'visits.py')).read().split("import math")[0], g)
sys.stdout = real
out = g['out']
vs = [o for o in out if not o['nstar'] and not math.isnan(o['iss_ratio'])]
for lo, hi in ((0, 0.9), (0.9, 0.95), (0.95, 1.05), (1.05, 1.10), (1.10, 9)):
    b = [o for o in vs if lo <= o['ratio'] < hi]
    if b:
        ir = sorted(o['iss_ratio'] for o in b)
        print('visit/rounds in [%.2f,%.2f): %4d visits, issue ratio median %.3f, share with issue '
              '>1.10: %.2f' % (lo, hi, len(b), ir[len(ir) // 2], sum(x > 1.10 for x in ir) / len(ir)))
for lo, hi in ((0, 0.9), (0.9, 1.1), (1.1, 1.2), (1.2, 9)):
    b = [o for o in vs if lo <= o['iss_ratio'] < hi]
    if b:
        slow = sum(o['ratio'] > 1.1 for o in b)
        print('issue ratio [%.2f,%.2f): %4d visits, time >1.10: %d (%.1f %%), time >1.05: %.1f %%'
              % (lo, hi, len(b), slow, 100 * slow / len(b),
                 100 * sum(o['ratio'] > 1.05 for o in b) / len(b)))
dev = [o for o in vs if o['bound'] < 0.7]
slow = [o for o in dev if o['ratio'] > 1.10]
ok = [o for o in dev if 0.95 <= o['ratio'] < 1.05]
ir = sorted(o['iss_ratio'] for o in slow)
print('device-bound visits (rounds issue < 0.7 of time): %d, over 1.10x: %d, of those issued '
      '>1.10x: %.2f (median issue ratio %.3f); of the visits within 5 %%: %.2f'
      % (len(dev), len(slow), sum(x > 1.1 for x in ir) / len(ir), ir[len(ir) // 2],
         sum(o['iss_ratio'] > 1.1 for o in ok) / len(ok)))
