#!/bin/bash
# The probe first after a kept re-derivation, replayed (CPU only): run 147's replay_ab.sh over
# runs 141-145's eight whole-grid sweeps and the six b sweeps of runs 147-148 (a844b5a's
# controller), 20 seeds, without a burst and with a burst of the lease (streamed batches 1.25x)
# at four points of the 150-batch adaptive run; a844b5a's controller_replay (BASE) against
# ab3b870's (NEW).
#   BASE=/tmp/base/controller_replay NEW=build/mine/bench/controller_replay \
#     bash docs/evidence/run150/replay_ab.sh > docs/evidence/run150/replay-ab.txt
#   python3 docs/evidence/run147/replay_summary.py docs/evidence/run150/replay-ab.txt
e=docs/evidence
SWEEPS="$e/run141/sweep-a $e/run141/sweep-b $e/run142/sweep-a2 $e/run142/sweep-a3 \
$e/run142/sweep-b2 $e/run142/sweep-b3 $e/run145/sweep-a4 $e/run145/sweep-b4 $e/run147/sweep-b1 \
$e/run147/sweep-b2 $e/run147/sweep-b3 $e/run147/sweep-b4 $e/run148/sweep-b1 $e/run148/sweep-b2" \
  exec bash $e/run147/replay_ab.sh
