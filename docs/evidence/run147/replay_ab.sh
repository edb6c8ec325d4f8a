#!/bin/bash
# Carried visits, replayed (CPU only): controller_replay on runs 141-145's eight whole-grid
# sweeps, 20 seeds, without a burst and with a burst of the lease (streamed batches 1.25x) at five
# points of the 150-batch adaptive run; the controller of 21030bd (BASE: its controller_replay
# built with this session's bench/controller_replay.cpp, for --burst) against this one (NEW).
#   BASE=/tmp/base-wt/build/bench/controller_replay NEW=build/mine/bench/controller_replay \
#     bash docs/evidence/run147/replay_ab.sh > docs/evidence/run147/replay-ab.txt
set -e
P=docs/evidence/run117/h100.toml
tmp=$(mktemp -d)
# SWEEPS (optional, run 150): other sweeps to replay, as paths without .csv.gz.
for f in ${SWEEPS:-docs/evidence/run141/sweep-a docs/evidence/run141/sweep-b \
         docs/evidence/run142/sweep-a2 docs/evidence/run142/sweep-a3 docs/evidence/run142/sweep-b2 \
         docs/evidence/run142/sweep-b3 docs/evidence/run145/sweep-a4 docs/evidence/run145/sweep-b4}; do
  name=$(basename $(dirname $f))-$(basename $f)
  zcat $f.csv.gz > $tmp/$name.csv
  for b in none 30:37:0.25 60:67:0.25 90:97:0.25 110:117:0.25; do
    arg=""; [ $b != none ] && arg="--burst=$b"
    for side in base new; do
      bin=$BASE; [ $side = new ] && bin=$NEW
      $bin $tmp/$name.csv $P --seeds=20 $arg | awk -v f=$name -v b=$b -v s=$side '
        /^(graph|streams) /{mode=$1; mean=$3; worst=$6}
        /prediction error/{printf "%s %s %s %s median %s largest %s over10 %s choice %s worst %s\n",
                           f, b, s, mode, $4, $7, $16, mean, worst}'
    done
  done
done
rm -rf $tmp
