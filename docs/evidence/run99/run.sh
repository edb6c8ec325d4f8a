# Run 99 (session 17): issue 4's adaptive benchmarks on the current code (a217788: an n's time
# from its samples is their lower median, which the controller's choices read): stationary
# (adaptive against the best fixed n, goal >= 0.98), two-phase and continuous.
cd .device && . ./env.sh && cd .. && R=$OUT/run99 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 560 .device/bin/adaptive_bench all --batches=400 > $R/adaptive-all.txt 2>&1; echo "adaptive_bench all rc=$? ${SECONDS}s"; cat $R/adaptive-all.txt
