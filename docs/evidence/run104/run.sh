# Run 104 (session 18): the code of this session (the sweep's summary per grid, `sweep --from`):
# every GPU test, then a sweep of the symmetric and matmul grids as graphs with run 98's profile,
# whose summary now carries the accuracy per grid; its CSV summarized again with --from.
# `bash docs/evidence/run104/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run104 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 220 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
timeout 150 .device/bin/streampipe sweep --grid=symmetric,matmul --issue=graph --profile=docs/evidence/run98/h100.toml \
  --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "sweep rc=$? ${SECONDS}s"
sed -n '/per grid/,/^Choice/p' $R/sweep.log
.device/bin/streampipe sweep --from=$R/sweep.csv --summary=$R/summary-from.md 2> /dev/null; echo "from rc=$?"
cmp $R/summary.md $R/summary-from.md && echo "summary from the CSV: identical"
rm -rf $R/gpu-tests; gzip $R/sweep.csv; tar -C /tmp -czf $OUT/run104.tgz run104
