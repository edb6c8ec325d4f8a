# Run 231's criterion B: in each adaptive run of a sweep's log, the samples of n*'s neighbours
# (n*/2 and 2 n*, where measured); with the second visit each should have two visits' (4 or more).
#   python3 docs/evidence/run231/neighbours.py docs/evidence/run231/sweep-B.log.gz
import gzip, re, sys
for path in sys.argv[1:]:
    short = []
    runs = 0
    for line in gzip.open(path, 'rt'):
        if 'adaptive measured' not in line:
            continue
        runs += 1
        m = {int(n): int(k) for n, k in re.findall(r'n=(\d+):(\d+)x', line)}
        star = max(m, key=m.get)
        for n in (star // 2, star * 2):
            if n in m and m[n] < 4:
                short.append((runs, star, n, m[n]))
    print(f'{path}: {runs} adaptive runs; neighbours with fewer than 4 samples: {len(short)}'
          + (' ' + str(short) if short else ''))
