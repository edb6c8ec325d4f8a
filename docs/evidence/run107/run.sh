# Run 107 (session 18, after the final review): every GPU test on the final code, and the
# quick sweep with its summary. `bash docs/evidence/run107/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run107 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 220 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 120 .device/bin/streampipe sweep --grid=quick --issue=streams,graph --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "quick sweep rc=$? ${SECONDS}s"
grep "calibrated median" $R/sweep.log
rm -rf $R/gpu-tests; tar -C /tmp -czf $OUT/run107.tgz run107
