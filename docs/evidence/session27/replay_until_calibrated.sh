#!/bin/bash
# The adaptive run on until its calibration is complete, replayed (CPU only): controller_replay
# over the 18 whole-grid sweeps of the current controller (runs 147-148 b, 150 b, 152 b, 156 c),
# 20 seeds, without a burst and with a burst of the lease (streamed batches 1.25x) at three
# points of the 150-batch run; --batches=150 alone (base: the sweep before session 27) against
# --batches=150 --max-batches=600 (new: on while the calibration owes visits).
#   bash docs/evidence/session27/replay_until_calibrated.sh > docs/evidence/session27/replay-until-calibrated.txt
#   python3 docs/evidence/run147/replay_summary.py docs/evidence/session27/replay-until-calibrated.txt
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
  for b in none 60:67:0.25 90:97:0.25 110:117:0.25; do
    arg=""; [ $b != none ] && arg="--burst=$b"
    for side in base new; do
      more=""; [ $side = new ] && more="--max-batches=600"
      $BIN $tmp/$name.csv $P --seeds=20 --batches=150 $more $arg | awk -v f=$name -v b=$b -v s=$side '
        /^(graph|streams) /{mode=$1; mean=$3; worst=$6}
        /prediction error/{printf "%s %s %s %s median %s largest %s over10 %s choice %s worst %s\n",
                           f, b, s, mode, $4, $7, $16, mean, worst}'
    done
  done
done
rm -rf $tmp
