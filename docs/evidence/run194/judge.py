# Run 194 against its criterion (run.sh): per arm (check on / off) the stationary paired ratio
# of each of the six rows and their mean, the two-phase ratio to the per-phase best and the gain
# over the best single fixed n; the means over each side's runs; the verdict.
#   python3 docs/evidence/run194/judge.py docs/evidence/run194
import glob, re, sys, statistics as st
d = sys.argv[1]
side = {'1': {'paired': [], 'two': [], 'gain': [], 'events': []}, '0': {'paired': [], 'two': [], 'gain': [], 'events': []}}
for f in sorted(glob.glob(d + '/stationary-*.txt')):
    i, v = re.search(r'stationary-(\d+)-check(\d)', f).groups()
    rows = [l.split() for l in open(f) if re.match(r'^\d+\s+\d+\s+[\d.]+', l)]
    paired = [float(r[7]) for r in rows]
    ev = sum(len(r) - 9 for r in rows)
    side[v]['paired'].append(st.mean(paired)); side[v]['events'].append(ev)
    t = open(f.replace('stationary', 'two-phase')).read()
    two = float(re.search(r'adaptive / per-phase best = ([\d.]+)', t)[1])
    gain = float(re.search(r'adaptive is ([-\d.]+) % (faster|slower)', t)[1]) * (1 if 'faster' in t else -1)
    side[v]['two'].append(two); side[v]['gain'].append(gain)
    print(f'run {i} check={v}: stationary paired ' + ' '.join('%.4f' % x for x in paired) +
          f' (mean {st.mean(paired):.4f}; events {ev}); two-phase {two:.4f}, {gain:+.1f} % against the best fixed n')
for v, name in (('1', 'check on '), ('0', 'check off')):
    s = side[v]
    print(f'{name}: stationary paired mean {st.mean(s["paired"]):.4f} over {len(s["paired"])} runs; '
          f'two-phase {st.mean(s["two"]):.4f}, gain {st.mean(s["gain"]):+.1f} %')
d1 = st.mean(side['1']['paired']) - st.mean(side['0']['paired'])
d2 = st.mean(side['1']['two']) - st.mean(side['0']['two'])
print(f'on - off: stationary {d1:+.4f}, two-phase {d2:+.4f}')
ok = d1 >= -0.01 and d2 >= -0.01
print('criterion (2):', 'the check stays on' if ok else 'the check goes off')
