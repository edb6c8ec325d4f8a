# Run 94 (session 16): how slow the first batches of a run are (adaptive_bench ramp): after a block
# of batches, a fresh pipeline (as the sweep's adaptive run) or an idle gap, then 24 batches at n.
cd .device && . ./env.sh && cd .. && R=$OUT/run94 && mkdir -p $R && nvidia-smi > $R/gpu.txt
nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current,clocks.sm,clocks.mem,power.draw --format=csv > $R/idle-state.txt
( for i in $(seq 40); do nvidia-smi --query-gpu=timestamp,pcie.link.gen.current,clocks.sm,clocks.mem --format=csv,noheader; sleep 0.5; done ) > $R/state-during.txt 2>&1 &
.device/bin/adaptive_bench ramp --ramp-repeats=7 > $R/ramp.txt 2>&1; echo "ramp rc=$?"
wait
cat $R/ramp.txt; cat $R/idle-state.txt; sort -u -t, -k2,4 $R/state-during.txt | head -20
