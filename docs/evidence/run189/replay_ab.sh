#!/bin/bash
# controller_replay of run 189's seven sweeps (the current code's measurements on a quiet lease),
# 20 seeds each, with A (the current controller) and B (the lower probe, run187/lower-probe.patch
# applied), and the sums over the fourteen sweep-modes (replay-lower-probe.txt, replay-sums.txt).
#   bash docs/evidence/run189/replay_ab.sh /path/to/controller_replay_a /path/to/controller_replay_b
set -eu
cd "$(dirname "$0")/../../.."
for i in 1 2 3 4 5 6 7; do zcat docs/evidence/run189/sweep-$i.csv.gz > /tmp/r189-$i.csv; done
for v in a b; do
  bin=$1; [ $v = b ] && bin=$2
  echo "== $v"
  for i in 1 2 3 4 5 6 7; do
    "$bin" /tmp/r189-$i.csv docs/evidence/run117/h100.toml --seeds=20 --max-batches=600 2>&1 |
      grep -E "^(graph|streams) +mean|prediction error"
  done
done > docs/evidence/run189/replay-lower-probe.txt
python3 - <<'PY' | tee docs/evidence/run189/replay-sums.txt
import re
t = open('docs/evidence/run189/replay-lower-probe.txt').read().split('== b')
for lab, part in zip('AB', t):
    means = [float(x) for x in re.findall(r'mean (0\.\d+), worst', part)]
    worst = [float(x) for x in re.findall(r'worst run (0\.\d+)', part)]
    b95 = sum(int(x) for x in re.findall(r'below 0.95: (\d+)', part))
    b98 = sum(int(x) for x in re.findall(r'below 0.98: (\d+)', part))
    over = [float(x) for x in re.findall(r'points over 10 %: ([\d.]+) per seed', part)]
    print(lab, 'mean choice %.4f, worst run %.3f, configurations whose mean is below 0.95: %d, '
          'below 0.98: %d; points over 10 %% per seed, summed over sweep-modes: %.1f' %
          (sum(means) / len(means), min(worst), b95, b98, sum(over)))
PY
