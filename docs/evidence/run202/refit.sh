#!/usr/bin/env bash
# Refits run 202's twelve quick calibrations with the current FitInSituWithIdle, from what their
# logs print (the kernel's time as the model's n = 1 less the two 64 MiB copies; the copies from
# the copy table, not the sweep's rounds: an approximation), and prints logged against refit c.
#   bash docs/evidence/run202/refit.sh   (after a release build)
set -euo pipefail
cd "$(dirname "$0")/../../.."
g++ -O2 -std=c++20 -Iinclude docs/evidence/run202/refit.cpp -o /tmp/streampipe_refit \
  build/release/lib/libstreampipe_core.a \
  $(pkg-config --libs absl_status absl_statusor absl_strings absl_str_format absl_cord)
for i in $(seq 1 12); do
  zcat docs/evidence/run202/quick-$i.log.gz | python3 -c "
import sys, re
L = sys.stdin.read()
lh, ld = re.search(r'L\+o\s+h2d ([\d.]+) us\s+d2h ([\d.]+) us', L).groups()
gh, gd = re.search(r'g\s+h2d ([\d.]+) us\s+d2h ([\d.]+) us', L).groups()
held = re.search(r'held tiny sub-chunks: ([\d.]+) us', L).group(1)
c = re.search(r'c\s+([\d.]+) us per stream beside a busy', L).group(1)
row = re.search(r'^\s+67108864\s+([\d.]+)\s+([\d.]+)', L, re.M).groups()
sw = re.findall(r'^\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$', L.split('add-scalar sweep (')[-1], re.M)
print(lh, ld, gh, gd, held, row[0], row[1], sw[0][2], c)
for s in sw: print(*s)
"
done | /tmp/streampipe_refit
