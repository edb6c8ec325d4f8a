# Run 201 (session 36): the sweep's and calibrate's outputs opened before they measure, the
# sweep's rows on disk configuration by configuration (`<output>.partial` until whole), on the GPU:
# every GPU suite in the full bundle (`scripts/device-bundle --pack`, carried after
# `scripts/device-slim --keep=run201,run117`), the new sweep_cli_gpu_test among them, then by hand
# a quick sweep stopped by `timeout` part way and its .partial file summarized.
# Criterion, written before the run: every GPU suite passes, sweep_cli_gpu_test's 2 tests included.
#   bash docs/evidence/run201/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run201 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
echo "an earlier sweep" > $R/cut.csv
timeout 20 .device/bin/streampipe sweep --grid=symmetric --profile=$P --output=$R/cut.csv \
  2> $R/cut.log
echo "sweep stopped by timeout: rc=$? ${SECONDS}s"
echo "cut.csv: $(cat $R/cut.csv)"; echo "cut.csv.partial: $(wc -l < $R/cut.csv.partial) lines"
.device/bin/streampipe sweep --from=$R/cut.csv.partial --summary=$R/cut-summary.md 2> $R/cut-from.log
echo "sweep --from the .partial file: rc=$?"; head -12 $R/cut-summary.md
gzip $R/*.csv.partial $R/*.log
tar -C $OUT -czf $OUT/run201.tgz run201 && rm -rf $R
