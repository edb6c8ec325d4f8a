# Run 126 (session 21, the shape test as the time moved between the parts): every GPU test;
# three sweeps of the matrix-product and histogram grids (the sweep log's "non-streamed parts"
# line now counts pairs by the new test; "adaptive events" marks kept drifts); four two-phase runs.
# `bash docs/evidence/run126/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run126 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
for k in 1 2 3; do
  timeout 150 .device/bin/streampipe sweep --grid=matmul,histogram --issue=streams,graph --profile=docs/evidence/run117/h100.toml \
    --output=$R/sweep-f$k.csv --summary=$R/summary-f$k.md 2> $R/sweep-f$k.log; echo "sweep f$k rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-f$k.log
  echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep-f$k.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-f$k.log | wc -l)"
  grep -o "same shape within 10 % in [0-9]* of 45" $R/sweep-f$k.log | awk '{s += $7} END {print "  pairs of the same shape: " s " of " NR * 45}'
done
for k in 1 2 3 4; do
  timeout 60 .device/bin/adaptive_bench two-phase > $R/two-phase-$k.txt 2>&1; echo "two-phase $k rc=$? ${SECONDS}s $(grep -o 'per-phase best = [0-9.]*' $R/two-phase-$k.txt) $(grep -o 'adaptive is [-0-9.]* % faster' $R/two-phase-$k.txt) $(grep -o '([0-9]* events)' $R/two-phase-$k.txt)"
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run126.tgz run126
