# Run 102 (session 17): issue 4's stationary and two-phase benchmarks, the final controller
# (a: .device/bin/adaptive_bench, 12ad850) alternating with the one before session 17 (b:
# adaptive_bench-453e79d, built from a worktree with the release preset) on one lease; run 101's
# lease drifted (9-12 drift events per intensity). `bash docs/evidence/run102/run.sh`
cd .device && . ./env.sh && cd .. && R=$OUT/run102 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in a1 b1 a2 b2; do
  case $k in a*) bin=adaptive_bench;; b*) bin=adaptive_bench-453e79d;; esac
  timeout 120 .device/bin/$bin stationary --batches=400 > $R/stationary-$k.txt 2>&1; echo "stationary $k ($bin) rc=$? ${SECONDS}s"; tail -7 $R/stationary-$k.txt
  timeout 60 .device/bin/$bin two-phase > $R/two-phase-$k.txt 2>&1; echo "two-phase $k rc=$? ${SECONDS}s"; tail -2 $R/two-phase-$k.txt
done
