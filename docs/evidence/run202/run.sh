# Run 202 (session 36): after run 201 found `streampipe calibrate --quick` writing c = 2201 ms
# (a profile its own loader rejects; sweep_cli_gpu_test's first test), the in-situ fit's rounds
# stop at the last fit the measured batches allow, and no profile a loader would reject is
# written. Every GPU suite in the full bundle (carried after `scripts/device-slim
# --keep=run202,run117`), then twelve quick calibrations, each in a fresh process (the cold start
# of run 201's), and one symmetric sweep with every output (CSV, summary, traces).
# Criterion, written before the run: every GPU suite passes (sweep_cli_gpu_test's 2 tests
# included); every calibration exits 0 with c within the profile's range; the sweep exits 0 and
# leaves no .partial file.
#   bash docs/evidence/run202/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run202 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for i in $(seq 1 12); do
  .device/bin/streampipe calibrate --quick --output=$R/quick-$i.toml 2> $R/quick-$i.log
  echo "calibrate $i rc=$? $(grep -h '^stream_overhead_ms\|^idle_stream_overhead_ms' $R/quick-$i.toml | tr '\n' ' ') $(grep -h 'fit:\|warning' $R/quick-$i.log | tr '\n' ' ')"
done
P=docs/evidence/run117/h100.toml
.device/bin/streampipe sweep --grid=symmetric --issue=streams,graph --profile=$P \
  --output=$R/sweep-1.csv --summary=$R/summary-1.md --trace-dir=$R/traces 2> $R/sweep-1.log
echo "sweep rc=$? ${SECONDS}s; partial files: $(ls $R/*.partial 2>/dev/null | wc -l); traces: $(ls $R/traces | wc -l)"
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run202.tgz run202 && rm -rf $R
