# Where the calibrated prediction's misses are, over every committed trace: each point of the
# symmetric sweeps (whole grids left out) by where its n lies against the n the configuration's
# adaptive run measured in its last derivation, with the error as replayed by the current code
# (the sweeps' own predictions where they ran it: replay_all.sh with no --set). Also the
# configurations with n above every visit, and whether their runs hit the batch cap
# (the CSV's adaptive_batches), and what the sweep-modes within 10 % would be without those.
#   bash docs/evidence/session42/replay_all.sh build/release --list=0.0 > /tmp/all0.txt
#   python3 docs/evidence/session43/where.py /tmp/all0.txt
import csv, gzip, re, statistics, sys
from collections import Counter, defaultdict

cfg = defaultdict(list)  # (sweep, name, mode) -> [(n, error %, tag)]
sweep = None
for line in open(sys.argv[1]):
    m = re.match(r"== (\S+)", line)
    if m:
        sweep = m.group(1)
        continue
    m = re.match(r"  (.*) (graph|streams) n=(\d+): median [\d.]+ ms, sweep [-+\d.]+ %, "
                 r"replayed ([-+\d.]+) %, uncapped [-+\d.]+ %(.*)", line)
    if m and "symmetric in 64.0" in m.group(1) and "all" not in sweep:
        cfg[(sweep, m.group(1), m.group(2))].append(
            (int(m.group(3)), float(m.group(4)), m.group(5).strip()))

errors, over = defaultdict(list), Counter()
modes = defaultdict(lambda: [0, 0])  # (sweep, mode) -> [points over 10 %, of them not above]
above_cfgs = []
for (sw, name, mode), pts in cfg.items():
    modes[(sw, mode)]
    star = [n for n, e, t in pts if t == "(n*)"]
    seen = [n for n, e, t in pts if t in ("(visited)", "(n*)")]
    if not star:
        continue
    s = star[0]
    above = []
    for n, e, t in pts:
        if t == "(n*)": pos = "n*"
        elif t: pos = "visited"
        elif n == 1: pos = "n = 1 (the anchor)"
        elif n < min(seen): pos = "below the visits, n*/%d" % (s // n)
        elif n > max(seen): pos = "above the visits"; above.append(n)
        else: pos = "between visits"
        errors[pos].append(e)
        if abs(e) > 10:
            over[pos] += 1
            modes[(sw, mode)][0] += 1
            if pos != "above the visits":
                modes[(sw, mode)][1] += 1
    if above:
        above_cfgs.append((sw, name, mode))

print("%d sweeps, %d configurations, %d sweep-modes" %
      (len({k[0] for k in cfg}), len(cfg), len(modes)))
print("%-28s %7s %6s %7s %7s %7s" % ("where n lies", "points", ">10 %", "median", "p10", "p90"))
for pos, v in sorted(errors.items(), key=lambda kv: -len(kv[1])):
    v = sorted(v)
    print("%-28s %7d %6d %+6.1f%% %+6.1f%% %+6.1f%%" % (pos, len(v), over[pos],
          statistics.median(v), v[len(v) // 10], v[9 * len(v) // 10]))
caps = Counter()
for sw, name, mode in above_cfgs:
    run, idx = sw.split("-", 1)
    m = re.search(r"intensity (\S+) (\S+)$", name)
    for r in csv.DictReader(gzip.open("docs/evidence/%s/sweep-%s.csv.gz" % (run, idx), "rt")):
        if (r["grid"] == "symmetric" and r["intensity"] == m.group(1) and
                r["order"] == m.group(2) and r["issue"] == mode):
            caps[r.get("adaptive_batches")] += 1
            break
print("configurations with n above every visit: %d; their adaptive runs' batches: %s" %
      (len(above_cfgs), dict(caps)))
print("sweep-modes within 10 %%: %d of %d; were every point above the visits within: %d" %
      (sum(v[0] == 0 for v in modes.values()), len(modes),
       sum(v[1] == 0 for v in modes.values())))
