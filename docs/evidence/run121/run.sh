# Run 121 (session 21): a drift re-measurement that shows the workload's shape unchanged keeps n
# (e31f4c8). A/B on one lease, alternating: a = .device/bin/streampipe (e31f4c8), b =
# .device/bin/streampipe-b (the same tree with 96499de's controller: every drift re-derives from
# the model; its sweep log lists the events too). Full sweeps with run 117's profile (as run 119).
# Part 1: every GPU test, a1, b1. Part 2: a2, b2, a3. Part 3: b3, adaptive_bench two-phase a/b
# twice (issue 4: its phase change must still re-derive), the quick sweep.
# `bash docs/evidence/run121/run.sh 1`, then 2, then 3.
part=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run121-$part && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
P=docs/evidence/run117/h100.toml
sweep() {
  case $1 in a*) bin=.device/bin/streampipe;; b*) bin=.device/bin/streampipe-b;; esac
  timeout 200 $bin sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-$1.csv --summary=$R/summary-$1.md 2> $R/sweep-$1.log; echo "sweep $1 ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$1.log
  echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*[(kept)]*' $R/sweep-$1.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-$1.log | wc -l)"
}
case $part in
1) timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
   sweep a1; sweep b1;;
2) sweep a2; sweep b2; sweep a3;;
3) sweep b3
   for k in 1 2; do
     for s in a b; do
       bin=.device/bin/adaptive_bench; [ $s = b ] && bin=.device/bin/adaptive_bench-b
       timeout 60 $bin two-phase > $R/two-phase-$s$k.txt 2>&1; echo "two-phase $s$k rc=$? ${SECONDS}s"; grep -iE "ratio|faster|event" $R/two-phase-$s$k.txt | tail -4
     done
   done
   timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$P --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/quick.log;;
esac
[ "$part" = 4 ] || { gzip $R/*.csv $R/*.log 2>/dev/null; tar -C /tmp -czf $OUT/run121-$part.tgz run121-$part; }
# Part 4 (`run.sh 4 K`): two more two-phase pairs, a then b, numbered from K (3 -> a3 b3 a4 b4).
if [ "$part" = 4 ]; then
  R=/tmp/run121-4; mkdir -p $R; k0=${2:-3}
  for k in $k0 $((k0 + 1)); do
    for s in a b; do
      bin=.device/bin/adaptive_bench; [ $s = b ] && bin=.device/bin/adaptive_bench-b
      timeout 150 $bin two-phase > $R/two-phase-$s$k.txt 2>&1; echo "two-phase $s$k rc=$? ${SECONDS}s"; grep -E "^adaptive|per-phase|best single" $R/two-phase-$s$k.txt
    done
  done
  tar -C /tmp -czf $OUT/run121-4-$k0.tgz run121-4
fi
