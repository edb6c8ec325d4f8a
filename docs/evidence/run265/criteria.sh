# Run 265 criterion 1 (run 259 criteria.sh with its paths), on the CPU, from the repository root:
#   bash docs/evidence/run265/criteria.sh [BUILD_DIR]
set -u
B=${1:-build/release}
D=docs/evidence/run265
want='judge-anchor=true kernel-halves=true probe-ratio=3 check-anchor=false cap-slow-visits=true carry-far-visits=false measure-batches=1 drift-threshold=0.1 hardware-queues='
T=$(mktemp -d)
for s in $D/sweep-*.csv.gz; do
  k=$(basename $s .csv.gz | sed 's/sweep-//')
  rows=$(zcat $s | tail -n +2 | wc -l)
  good=$(zcat $s | tail -n +2 | grep -cF "$want")
  echo "== $k: $good of $rows rows record the controller keys as run 238's"
  # (Run 241's script, its amendment kept: a whole grid's rows hold histogram-kernel=shared.)
  with_hist=$(zcat $s | tail -n +2 | grep -cF "${want%hardware-queues=}histogram-kernel=shared hardware-queues=")
  echo "   (amended) $((good + with_hist)) of $rows rows: those, or with histogram-kernel=shared before hardware-queues"
  zcat $s > $T/s.csv; zcat $D/trace-$k.csv.gz > $T/t.csv
  "$B/bench/trace_replay" $T/s.csv $T/t.csv docs/evidence/run257/h200-1.toml 2>&1 |
    grep -E "not reproduced|replayed within|as the sweep wrote|^[a-z]+: [0-9]+ configurations"
  echo "trace_replay rc=${PIPESTATUS[0]}"
done
rm -rf $T
