#!/bin/bash
# adaptive.prior_samples replayed (CPU only): controller_replay over 28 whole-grid sweeps (session
# 28's 18 of runs 147-156, and runs 159 b, 160 and 161 b), 20 seeds, the sweep's run (150
# batches, on until calibrated up to 600), prior_samples 0 (off) against 1, 2 and 4, with no
# slowed batches, with runs of slowed batches (5 % of batches 1.17x, in runs of 4 on average) and
# with run 97's tail (a quarter of batches 1.17x).
#   bash docs/evidence/session29/replay_prior.sh > docs/evidence/session29/replay-prior.txt
# (with 3709a48's controller_replay: the option was reverted after run 162; BIN=path/to/it)
set -e
P=docs/evidence/run117/h100.toml
BIN=${BIN:-build/mine/bench/controller_replay}
PRIORS=${PRIORS:-0 1 2 4}
e=docs/evidence
tmp=$(mktemp -d)
for f in $e/run147/sweep-b1 $e/run147/sweep-b2 $e/run147/sweep-b3 $e/run147/sweep-b4 \
         $e/run148/sweep-b1 $e/run148/sweep-b2 $e/run150/sweep-b1 $e/run150/sweep-b2 \
         $e/run150/sweep-b3 $e/run150/sweep-b4 $e/run150/sweep-b5 $e/run150/sweep-b6 \
         $e/run152/sweep-b1 $e/run152/sweep-b2 $e/run152/sweep-b3 $e/run152/sweep-b4 \
         $e/run156/sweep-c1 $e/run156/sweep-c2 $(ls $e/run159/sweep-b*.csv.gz | sed 's/.csv.gz//') \
         $e/run160/sweep-a1 $e/run160/sweep-a2 $(ls $e/run161/sweep-b*.csv.gz | sed 's/.csv.gz//'); do
  name=$(basename $(dirname $f))-$(basename $f)
  zcat $f.csv.gz > $tmp/$name.csv
  for slow in none 0.05:0.17:4 0.25:0.17:1; do
    arg=""; [ $slow != none ] && arg="--slow=${slow%:*} --slow-run=${slow##*:}"
    for prior in $PRIORS; do
      $BIN $tmp/$name.csv $P --seeds=20 --batches=150 --max-batches=600 --prior-samples=$prior $arg | awk -v f=$name -v b=$slow -v s=$prior '
        /^(graph|streams) /{mode=$1; mean=$3; worst=$6}
        /prediction error/{printf "%s %s %s %s median %s largest %s over10 %s choice %s worst %s\n",
                           f, b, s, mode, $4, $7, $16, mean, worst}'
    done
  done
done
rm -rf $tmp
