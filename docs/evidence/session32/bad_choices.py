# The configurations whose adaptive choice is under 0.95 of the best (rounds' medians), with the
# kept run's events: was the choice reached by an exploration switch away from the best n?
#   python3 docs/evidence/session32/bad_choices.py SWEEP.csv.gz ...
import csv, gzip, re, sys
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)')
kinds = {}
for f in sys.argv[1:]:
    by = {}
    for r in csv.DictReader(gzip.open(f, 'rt')):
        by.setdefault((r['grid'], r['intensity'], r['order'], r['issue']), {})[int(r['streams'])] = r
    key = None
    for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = CFG.match(line)
        if m:
            key = (m[2], m[5], m[6], m[7]); continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if m and key: seen = m[1]
        m = re.match(r'\s+adaptive events \(kind:old->new n@batch\): (.*)', line)
        if not (m and key in by): continue
        rs = by[key]; key2 = key; key = None
        best = min(rs, key=lambda n: float(rs[n]['median_ms']))
        ch = int(next(iter(rs.values()))['chosen_adaptive'])
        if ch not in rs: continue
        ratio = float(rs[best]['median_ms']) / float(rs[ch]['median_ms'])
        if ratio >= 0.95: continue
        ev = re.findall(r'(\w+):(\d+)->(\d+)@(\d+)', m[1])
        # Every exploration switch of the kept run: a drift that kept n carries the n a switch
        # before it chose.
        sw = [(int(a), int(b)) for k, a, b, _ in ev if k == 'exploration']
        away = any(a == best for a, b in sw)
        kind = 'switched away from the best n' if away else ('switched, not from the best' if sw else 'no exploration switch')
        kinds[kind] = kinds.get(kind, 0) + 1
        print('%-26s %-7s i=%-5s %-17s best n=%-3d chosen %-3d ratio %.3f  %s  %s | %s' % (
            '/'.join(f.split('/')[-2:]), key2[3], key2[1], key2[2], best, ch, ratio, kind, m[1].strip(), seen.strip()))
print(kinds)
