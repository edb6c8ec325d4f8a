# Run 181: per sweep, the kept adaptive runs' drift re-derivations (from the logs' "adaptive
# events" lines), how many runs ended on a drift's derivation, and how the visited n (not n*)
# were sampled (the "adaptive measured" lines: samples per n other than the most-sampled one).
#   cd docs/evidence/run181 && python3 drifts.py
import gzip, re, glob, collections, statistics as st
for f in sorted(glob.glob('sweep-*.log.gz')):
    t = gzip.open(f, 'rt').read()
    ev = re.findall(r'adaptive events \(kind:old->new n@batch\):(.*)', t)
    me = re.findall(r'adaptive measured \(n:samples x ms/issue ms\):(.*)', t)
    drifts = [len(re.findall(r'drift:', e)) for e in ev]
    last_drift = sum(1 for e in ev if e.split() and e.split()[-1].startswith('drift'))
    visits = collections.Counter()
    for m in me:
        ns = [(int(a), int(b)) for a, b in re.findall(r'n=(\d+):(\d+)x', m)]
        if not ns: continue
        top = max(ns, key=lambda x: x[1])
        for n, k in ns:
            if (n, k) != top: visits[k] += 1
    print('%-18s runs %3d  drift events: total %4d, median %.1f per run, max %2d; last derivation a drift in %3d; visited-n samples %s' % (
        f[:-7], len(ev), sum(drifts), st.median(drifts), max(drifts), last_drift, dict(sorted(visits.items()))))
