# Run 207 (session 36): the final code after the last read of the whole change (StreamsFor shared
# by Measure and --resume; behaviour unchanged) on the GPU: every GPU suite in
# the full bundle, carried after `scripts/device-slim --keep=run207,run117`.
# Then one symmetric sweep (the benchmark the change touches) with every output.
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included;
# the sweep exits 0 with 289 lines and no .partial file.
#   bash docs/evidence/run207/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run207 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h "listed twice\|repetitions=2, this\|resuming" $R/tests/cli_gpu_test.log | head -5
P=docs/evidence/run117/h100.toml
.device/bin/streampipe sweep --grid=symmetric --issue=streams,graph --profile=$P \
  --output=$R/sweep-1.csv --summary=$R/summary-1.md 2> $R/sweep-1.log
echo "sweep rc=$? ${SECONDS}s; $(wc -l < $R/sweep-1.csv) lines; partial files: $(ls $R/*.partial 2>/dev/null | wc -l)"
grep "calibrated median" $R/sweep-1.log
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run207.tgz run207 && rm -rf $R
