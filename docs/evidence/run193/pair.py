# Runs 192-193's exact pair: the calibrated prediction with the anchor check (pred_calibrated: the
# faster of the two non-streamed batches anchors n = 1 and below the visited n) against the
# prediction with the first anchor alone (the log's "first anchor alone" line; where a
# configuration has no such line, no check ran and the two are the same), on the same batches.
# Per sweep-mode: median and max error and points over 10 % for each; then the totals and the
# criterion written in run.sh.
#   python3 docs/evidence/run193/pair.py docs/evidence/run193/sweep-*.csv.gz
# (run 193's criterion: part 2 allows 0.5 percentage points, see run.sh)
import csv, gzip, re, sys, statistics as st
def first_anchor(logf):
    out = {}; key = None
    for l in gzip.open(logf, 'rt'):
        h = re.match(r'  (\S+) +(\S+) +in +([\d.]+) MiB out +([\d.]+) MiB intensity (\S+)\s+(\S+)\s+(\S+)', l)
        if h:
            key = (h[1], h[2], h[3], h[4], float(h[5]), h[6], h[7]); continue
        m = re.search(r'adaptive anchor check: ([\d.]+) ms; first anchor alone \(n:ms\):(.*)', l)
        if m and key:
            out[key] = {int(a): float(b) for a, b in re.findall(r'n=(\d+):([\d.]+)', m[2])}
    return out
tot = {'over_c': 0, 'over_f': 0, 'modes': 0, 'max_worse': 0, 'met_c': 0, 'met_f': 0, 'checks': 0, 'configs': 0}
for f in sys.argv[1:]:
    fa = first_anchor(f.replace('.csv.gz', '.log.gz'))
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    name = f.split('/')[-1].replace('.csv.gz', '')
    for mode in ('graph', 'streams'):
        ec, ef, cfgs, checked = [], [], set(), set()
        for r in rows:
            if r['issue'] != mode: continue
            key = (r['workload'], r['grid'], '%.1f' % (float(r['in_bytes']) / 2**20),
                   '%.1f' % (float(r['out_bytes']) / 2**20), float(r['intensity']), r['order'], r['issue'])
            cfgs.add(key)
            m = float(r['median_ms']); pc = float(r['pred_calibrated'])
            pf = fa[key][int(r['streams'])] if key in fa else pc
            if key in fa: checked.add(key)
            ec.append(abs(pc / m - 1)); ef.append(abs(pf / m - 1))
        if not ec: continue
        oc, of = sum(x > .1 for x in ec), sum(x > .1 for x in ef)
        tot['modes'] += 1; tot['over_c'] += oc; tot['over_f'] += of
        tot['max_worse'] += max(ec) > max(ef) + 0.005
        tot['met_c'] += max(ec) <= .1; tot['met_f'] += max(ef) <= .1
        tot['checks'] += len(checked); tot['configs'] += len(cfgs)
        print(f'{name:12s} {mode:7s} with the check: median {100*st.median(ec):4.1f} % max {100*max(ec):5.1f} % ({oc:2d} over)'
              f'   first anchor alone: median {100*st.median(ef):4.1f} % max {100*max(ef):5.1f} % ({of:2d} over)'
              f'   checks {len(checked)} of {len(cfgs)}')
print(f"{tot['modes']} sweep-modes; configurations with a check {tot['checks']} of {tot['configs']}; "
      f"points over 10 %: with the check {tot['over_c']}, first anchor alone {tot['over_f']}; "
      f"max within 10 %: {tot['met_c']} against {tot['met_f']}; sweep-modes whose max is over 0.5 points larger with the check: {tot['max_worse']}")
ok1 = tot['over_c'] < tot['over_f']; ok2 = tot['max_worse'] == 0
print(f"1. fewer points over 10 % with the check            {'yes' if ok1 else 'NO'}")
print(f"2. no sweep-mode's max over 0.5 points larger       {'yes' if ok2 else 'NO'}")
print('criterion:', 'MET (the check goes on by default)' if ok1 and ok2 else 'FAILED (the check stays off)')
