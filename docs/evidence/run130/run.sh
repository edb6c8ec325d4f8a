# Run 130 (session 21, the final code after its read-through, 3b3b50f): every GPU test, the quick
# sweep, and one sweep of the matrix-product and histogram grids (the shape-test line of its log).
# `bash docs/evidence/run130/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run130 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
P=docs/evidence/run117/h100.toml
timeout 100 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --profile=$P --output=$R/quick.csv --summary=$R/quick.md 2> $R/quick.log; echo "quick sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/quick.log; grep -A2 "^| adaptive" $R/quick.md | head -3
timeout 150 .device/bin/streampipe sweep --grid=matmul,histogram --issue=streams,graph --profile=$P --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "sweep rc=$? ${SECONDS}s"
grep "calibrated median" $R/sweep.log
echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep.log | wc -l), kept: $(grep -o '(kept)' $R/sweep.log | wc -l)"
grep -o "same shape within 10 % in [0-9]* of 45" $R/sweep.log | awk '{s += $7} END {print "  pairs of the same shape: " s " of " NR * 45}'
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run130.tgz run130
