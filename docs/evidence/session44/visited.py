# How many sweep-modes miss the 10 % maximum at an n the adaptive run itself measured: there the
# calibrated prediction is that run's own time at n (a visit of a few batches, or n*'s level), and
# the sweep measured the same n again in its rounds before and after the run. A miss there is
# the lease's speed between two measurements of one workload, which no model can predict.
# Every committed symmetric sweep (whole grids left out), as replayed by the current code:
#   bash docs/evidence/session42/replay_all.sh build/release --list=0.0 > /tmp/all0.txt
#   python3 docs/evidence/session44/visited.py /tmp/all0.txt
import re
import sys
from collections import defaultdict

modes = defaultdict(lambda: {"all": 0, "visited": 0, "slow_rounds": 0, "slow_visit": 0})
sweep = None
for line in open(sys.argv[1]):
    m = re.match(r"== (\S+)", line)
    if m:
        sweep = m.group(1)
        continue
    m = re.match(r"  (.*) (graph|streams) n=(\d+): median [\d.]+ ms, sweep [-+\d.]+ %, "
                 r"replayed ([-+\d.]+) %, uncapped [-+\d.]+ %(.*)", line)
    if not m or "symmetric in 64.0" not in m.group(1) or "all" in sweep:
        continue
    k = modes[(sweep, m.group(2))]
    e, tag = float(m.group(4)), m.group(5).strip()
    if abs(e) <= 10:
        continue
    k["all"] += 1
    if tag in ("(visited)", "(n*)"):
        k["visited"] += 1
        k["slow_rounds" if e < 0 else "slow_visit"] += 1

v = modes.values()
print("%d sweeps, %d sweep-modes" % (len({s for s, _ in modes}), len(modes)))
print("within 10 %% at every point: %d" % sum(k["all"] == 0 for k in v))
print("over 10 %% at a measured n (visited or n*): %d sweep-modes, %d points"
      % (sum(k["visited"] > 0 for k in v), sum(k["visited"] for k in v)))
print("  the sweep's rounds slower than the run's own time (prediction under): %d points, "
      "%d sweep-modes" % (sum(k["slow_rounds"] for k in v), sum(k["slow_rounds"] > 0 for k in v)))
print("  the run's own time slower than the rounds (prediction over): %d points, %d sweep-modes"
      % (sum(k["slow_visit"] for k in v), sum(k["slow_visit"] > 0 for k in v)))
print("the most any prediction could reach with measured n predicted by their own times: %d"
      % sum(k["visited"] == 0 for k in v))
print("sweep-modes whose every miss is at a measured n: %d"
      % sum(k["all"] > 0 and k["all"] == k["visited"] for k in v))
