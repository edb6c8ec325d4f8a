# Issues 4 and 5's figures from runs 163-164's benchmark outputs (the current controller):
# stationary paired ratio per intensity (goal >= 0.98), two-phase (>= 0.97 of the per-phase best
# and >= 5 % faster than the best fixed n), continuous 64 MiB adaptive against the duplex bound
# (the best of in_flight 1-3; goal >= 0.95), 704x576 continuous against the copy bound (>= 0.98).
#   python3 docs/evidence/run164/issue45.py docs/evidence/run163 docs/evidence/run164
import glob, re, sys, statistics as st
paired, two, cont, hist = [], [], [], []
for d in sys.argv[1:]:
    for f in sorted(glob.glob(d + '/adaptive-all-*.txt')):
        t = open(f).read()
        st_block = t.split('== stationary')[1].split('== two-phase')[0]
        p = [float(l.split()[7]) for l in st_block.splitlines() if re.match(r'^\d+ +\d+ ', l)]
        paired.append(p)
        r = float(re.search(r'adaptive / per-phase best = ([\d.]+)', t).group(1))
        m = re.search(r'adaptive is ([-\d.]+) % (faster|slower)', t)
        fast = float(m.group(1)) * (1 if m.group(2) == 'faster' else -1)
        two.append((r, fast))
        c = t.split('== continuous')[1]
        autos = [float(l.split()[5]) for l in c.splitlines() if re.match(r'^\d +auto', l)]
        cont.append(max(autos))
    for f in sorted(glob.glob(d + '/histogram-sizes-*.txt')):
        for l in open(f):
            if l.startswith('704x576'): hist.append(float(l.split()[-1]))
print('stationary runs: %d; paired per run (median, min, intensities >= 0.98):' % len(paired))
for p in paired: print('  %.4f %.4f %d of %d' % (st.median(p), min(p), sum(x >= 0.98 for x in p), len(p)))
print('two-phase (ratio, percent faster): ' + ', '.join('%.4f / %.1f %%' % x for x in two) +
      '; both goals met in %d of %d' % (sum(r >= 0.97 and f >= 5 for r, f in two), len(two)))
print('continuous 64 MiB, adaptive, best in_flight vs duplex bound: ' + ', '.join('%.3f' % x for x in cont) +
      '; >= 0.95 in %d of %d' % (sum(x >= 0.95 for x in cont), len(cont)))
print('704x576 continuous vs copy bound: ' + ', '.join('%.3f' % x for x in hist) +
      '; >= 0.98 in %d of %d' % (sum(x >= 0.98 for x in hist), len(hist)))
