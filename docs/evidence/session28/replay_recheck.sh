#!/bin/bash
# exploration.recheck_slower replayed (CPU only): controller_replay over the 18 whole-grid sweeps
# of session 27's replay (runs 147-148 b, 150 b, 152 b, 156 c), 20 seeds, the sweep's run (150
# batches, on until calibrated up to 600), off (--recheck-slower=0) against on (the default,
# 0.10), with no slowed batches, with runs of slowed batches (5 % of batches 1.17x, in runs of 4
# on average: bursts a visit of two batches can sit in) and with run 97's tail (a quarter 1.17x).
#   bash docs/evidence/session28/replay_recheck.sh > docs/evidence/session28/replay-recheck.txt
# (with da07a25's controller_replay: the option was reverted after run 161; BIN=path/to/it)
set -e
P=docs/evidence/run117/h100.toml
BIN=${BIN:-build/mine/bench/controller_replay}
e=docs/evidence
tmp=$(mktemp -d)
for f in $e/run147/sweep-b1 $e/run147/sweep-b2 $e/run147/sweep-b3 $e/run147/sweep-b4 \
         $e/run148/sweep-b1 $e/run148/sweep-b2 $e/run150/sweep-b1 $e/run150/sweep-b2 \
         $e/run150/sweep-b3 $e/run150/sweep-b4 $e/run150/sweep-b5 $e/run150/sweep-b6 \
         $e/run152/sweep-b1 $e/run152/sweep-b2 $e/run152/sweep-b3 $e/run152/sweep-b4 \
         $e/run156/sweep-c1 $e/run156/sweep-c2; do
  name=$(basename $(dirname $f))-$(basename $f)
  zcat $f.csv.gz > $tmp/$name.csv
  for slow in none 0.05:0.17:4 0.25:0.17:1; do
    arg=""; [ $slow != none ] && arg="--slow=${slow%:*} --slow-run=${slow##*:}"
    for side in off on; do
      more="--recheck-slower=0"; [ $side = on ] && more=""
      $BIN $tmp/$name.csv $P --seeds=20 --batches=150 --max-batches=600 $more $arg | awk -v f=$name -v b=$slow -v s=$side '
        /^(graph|streams) /{mode=$1; mean=$3; worst=$6}
        /prediction error/{printf "%s %s %s %s median %s largest %s over10 %s choice %s worst %s\n",
                           f, b, s, mode, $4, $7, $16, mean, worst}'
    done
  done
done
rm -rf $tmp
