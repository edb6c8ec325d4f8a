# Run 205 (session 36): `sweep --resume` (acb823c) on the GPU: every GPU suite in the full bundle
# (carried after `scripts/device-slim --keep=run205,run117`), then a whole-grid sweep stopped by
# `timeout 60` and continued with --resume.
# Criterion, written before the run: every GPU suite passes (cli_gpu_test's 3 tests included);
# the resumed sweep exits 0 with 985 lines (984 points and the header), begins with the stopped
# sweep's rows byte for byte, and leaves no .partial file.
#   bash docs/evidence/run205/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run205 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
S=".device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P --output=$R/sweep-all1.csv --summary=$R/summary-all1.md"
timeout 60 $S 2> $R/sweep-all1-stopped.log; echo "stopped by timeout: rc=$? ${SECONDS}s"
cp $R/sweep-all1.csv.partial $R/stopped.csv; echo "partial: $(wc -l < $R/stopped.csv) lines"
timeout $((560 - SECONDS)) $S --resume 2> $R/sweep-all1.log; echo "resumed: rc=$? ${SECONDS}s; $(wc -l < $R/sweep-all1.csv) lines; partial files: $(ls $R/*.partial 2>/dev/null | wc -l)"
head -c $(stat -c %s $R/stopped.csv) $R/sweep-all1.csv | cmp - $R/stopped.csv && echo "begins with the stopped rows"
grep "resuming" $R/sweep-all1.log
rm $R/stopped.csv
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run205.tgz run205 && rm -rf $R
