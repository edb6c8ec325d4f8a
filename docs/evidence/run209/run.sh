# Run 209 (session 37): the review's mends to the settings (ec95f6e: the fingerprint over the
# profile's values alone, exact numbers, hardware-queues recorded, a resume that does not
# calibrate a missing profile, traces opened first): every GPU suite in the full bundle,
# carried after `scripts/device-slim --keep=run209,run117`; then one symmetric sweep with every
# output, and `--from` on it.
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included;
# the sweep exits 0 with 289 lines, no .partial file, 6 traces, and the one settings string on
# every row, named by its summary.
#   bash docs/evidence/run209/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run209 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
.device/bin/streampipe sweep --grid=symmetric --issue=streams,graph --profile=$P \
  --output=$R/sweep-1.csv --summary=$R/summary-1.md --trace-dir=$R/traces 2> $R/sweep-1.log
echo "sweep rc=$? ${SECONDS}s; $(wc -l < $R/sweep-1.csv) lines; partial files: $(find $R -name '*.partial' | wc -l); traces: $(ls $R/traces | wc -l)"
echo "distinct settings: $(tail -n +2 $R/sweep-1.csv | awk -F, '{print $NF}' | sort -u | wc -l)"
tail -n +2 $R/sweep-1.csv | awk -F, '{print $NF}' | sort -u
tail -3 $R/summary-1.md
.device/bin/streampipe sweep --from=$R/sweep-1.csv 2>&1 | tail -2
grep "calibrated median" $R/sweep-1.log
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run209.tgz run209 && rm -rf $R
