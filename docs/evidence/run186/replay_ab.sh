#!/bin/bash
# $1: binary; prints per setting the sums over sweeps
P=/work/main/docs/evidence/run117/h100.toml
for slow in "" "--slow=0.1:0.15 --slow-run=8" "--slow=0.05:0.17 --slow-run=4" "--slow=0.25:0.17 --slow-run=4"; do
  for f in /tmp/rp-*.csv; do
    $1 $f $P --seeds=20 --max-batches=600 $slow 2>&1 | grep -E "^(graph|streams) +mean|prediction error" 
  done | python3 -c "
import sys,re
t=sys.stdin.read()
means=[float(x) for x in re.findall(r'mean (0\.\d+), worst', t)]
worst=[float(x) for x in re.findall(r'worst run (0\.\d+)', t)]
b95=sum(int(x) for x in re.findall(r'below 0.95: (\d+)', t))
over=[float(x) for x in re.findall(r'points over 10 %: ([\d.]+) per seed', t)]
lg=[float(x) for x in re.findall(r'largest ([\d.]+) %', t)]
print('%-34s mean choice %.4f, worst run min %.3f, cfgs<0.95 %d; pred over 10%%/seed %.1f (sum over %d sweep-modes), largest median %.1f' % ('$slow' or 'none', sum(means)/len(means), min(worst), b95, sum(over), len(over), sorted(lg)[len(lg)//2]))
"
done
