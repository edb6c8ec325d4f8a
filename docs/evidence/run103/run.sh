# Run 103 (session 18): the A/B that sessions 17's leases could not settle. The final controller
# (a: .device/bin/{adaptive_bench,streampipe}, 12ad850) alternating with the one before session 17
# (b: *-453e79d, built from a worktree with the release preset) on one lease.
#   part 1: issue 4's stationary and two-phase benchmarks, three runs a side, then sweeps a1, b1
#   part 2: sweeps a2, b2, a3, b3
# Sweeps use run 98's profile. `bash docs/evidence/run103/run.sh 1`, then `... run.sh 2`.
part=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run103-$part && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
sweep() {
  case $1 in a*) bin=streampipe;; b*) bin=streampipe-453e79d;; esac
  timeout 150 .device/bin/$bin sweep --grid=all --issue=streams,graph --profile=docs/evidence/run98/h100.toml \
    --output=$R/sweep-$1.csv --summary=$R/summary-$1.md 2> $R/sweep-$1.log; echo "sweep $1 ($bin) rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$1.log
}
if [ "$part" = 1 ]; then
  for k in a1 b1 a2 b2 a3 b3; do
    case $k in a*) bin=adaptive_bench;; b*) bin=adaptive_bench-453e79d;; esac
    timeout 120 .device/bin/$bin stationary --batches=400 > $R/stationary-$k.txt 2>&1; echo "stationary $k ($bin) rc=$? ${SECONDS}s"; tail -7 $R/stationary-$k.txt
    timeout 60 .device/bin/$bin two-phase > $R/two-phase-$k.txt 2>&1; echo "two-phase $k rc=$? ${SECONDS}s"; tail -2 $R/two-phase-$k.txt
  done
  sweep a1; sweep b1
else
  sweep a2; sweep b2; sweep a3; sweep b3
fi
gzip $R/*.csv; tar -C /tmp -czf $OUT/run103-$part.tgz run103-$part
