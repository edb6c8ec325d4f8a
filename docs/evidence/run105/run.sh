# Run 105 (session 18): is the final controller's two-phase speed-up lower than 453e79d's? (run
# 103: 5.2 / 4.3 / 5.4 % against 6.3 / 6.1 / 6.3 %, all three below). Eight two-phase runs a
# side, alternating (a: .device/bin/adaptive_bench, the final controller; b:
# adaptive_bench-453e79d, built from a worktree), then two stationary runs a side.
# `bash docs/evidence/run105/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run105 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for i in 1 2 3 4 5 6 7 8; do for side in a b; do
  case $side in a) bin=adaptive_bench;; b) bin=adaptive_bench-453e79d;; esac
  timeout 60 .device/bin/$bin two-phase > $R/two-phase-$side$i.txt 2>&1; echo "two-phase $side$i rc=$? ${SECONDS}s $(grep -o 'adaptive / per-phase best = [0-9.]*' $R/two-phase-$side$i.txt) $(grep -o 'adaptive is [-0-9.]* % faster' $R/two-phase-$side$i.txt)"
done; done
for i in 1 2; do for side in a b; do
  case $side in a) bin=adaptive_bench;; b) bin=adaptive_bench-453e79d;; esac
  timeout 120 .device/bin/$bin stationary --batches=400 > $R/stationary-$side$i.txt 2>&1; echo "stationary $side$i rc=$? ${SECONDS}s"; tail -6 $R/stationary-$side$i.txt | awk '{print $1, $8}' | tr '\n' ' '; echo
done; done
tar -C /tmp -czf $OUT/run105.tgz run105
