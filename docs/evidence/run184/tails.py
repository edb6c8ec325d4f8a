# Run 184's points over 10 % (calibrated prediction), each with the adaptive run's visits to its
# configuration from the sweep's log: whether the point's n was visited, and the visit's time
# against the rounds' median there.
#   python3 docs/evidence/run184/tails.py docs/evidence/run184/sweep-*.csv.gz
import csv, gzip, re, sys
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    log = gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt').read().splitlines()
    visits, key = {}, None
    for line in log:
        m = re.match(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)', line)
        if m:
            key = (m[1], m[2], m[3], m[4], m[5], m[6], m[7]); continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if m and key:
            visits[key] = {int(a): (int(b), float(c)) for a, b, c in re.findall(r'n=(\d+):(\d+)x([\d.]+)/', m[1])}
    by = {}
    for r in rows:
        k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'])
        by.setdefault(k, {})[int(r['streams'])] = float(r['median_ms'])
    for r in rows:
        e = float(r['pred_calibrated']) / float(r['median_ms']) - 1
        if abs(e) <= 0.10: continue
        k = (r['workload'], r['grid'], '%.1f' % (int(r['in_bytes']) / 2**20), '%.1f' % (int(r['out_bytes']) / 2**20), r['intensity'], r['order'], r['issue'])
        n = int(r['streams']); v = visits.get(k, {})
        seen = ' '.join('%d:%dx%.3f' % (m, s, t / by[k][m]) for m, (s, t) in sorted(v.items()) if m in by[k])
        print('%-8s %-7s i=%-5s %-17s n=%-3d n*=%-3s err %+6.1f %%  %s  visits/rounds: %s' % (
            f.split('/')[-1][:-7], r['issue'], r['intensity'], r['order'], n, r['chosen_adaptive'],
            100 * e, 'visited' if n in v else 'not visited', seen))
