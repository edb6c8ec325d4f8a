# Run 186: at the n that was n* before the last exploration switch of a configuration's kept
# adaptive run (its log's events), the samples the run kept there and the calibrated prediction's
# error against the rounds, per variant (A keeps the former n*'s samples; B drops them on the
# switch, and the n is visited afresh).
#   python3 docs/evidence/run186/former.py docs/evidence/run186/sweep-*.csv.gz
import csv, gzip, re, sys, statistics as st
CFG = re.compile(r'\s+(\S+) (\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\d+)\s+(\S+)\s+(graph|streams)\s+best n=\s*(\d+).*adaptive n=\s*(\d+)')
out = {'a': [], 'b': []}
for f in sys.argv[1:]:
    v = re.search(r'sweep-\d+([ab])', f)[1]
    by = {}
    for r in csv.DictReader(gzip.open(f, 'rt')):
        by[(r['intensity'], r['order'], r['issue'], int(r['streams']))] = r
    key, samples = None, {}
    for line in gzip.open(f.replace('.csv.gz', '.log.gz'), 'rt'):
        m = CFG.match(line)
        if m:
            key = (m[5], m[6], m[7]); continue
        m = re.match(r'\s+adaptive measured \(n:samples x ms/issue ms\): (.*)', line)
        if m and key:
            samples = {int(n): int(s) for n, s in re.findall(r'n=(\d+):(\d+)x', m[1])}
        m = re.match(r'\s+adaptive events \(kind:old->new n@batch\): (.*)', line)
        if m and key:
            ev = re.findall(r'(\w+):(\d+)->(\d+)@(\d+)', m[1])
            # the last derivation: events after the last initial/drift
            last = max((i for i, e in enumerate(ev) if e[0] != 'exploration'), default=-1)
            sw = [e for e in ev[last + 1:] if e[0] == 'exploration']
            if sw:
                old = int(sw[-1][1]); r = by.get(key + (old,))
                if r:
                    out[v].append((abs(float(r['pred_calibrated']) / float(r['median_ms']) - 1), samples.get(old, 0)))
            key = None
for v, x in out.items():
    if x:
        e = [a for a, _ in x]
        print('%s: %d configurations with a switch in the kept derivation; at the former n*: samples median %d, error median %.1f %%, max %.1f %%, over 10 %%: %d' % (
            v.upper(), len(x), st.median([s for _, s in x]), 100 * st.median(e), 100 * max(e), sum(a > 0.1 for a in e)))
