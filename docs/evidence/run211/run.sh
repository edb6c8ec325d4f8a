# Run 211 (session 37): run 210 again after its one failed expectation was mended (the test
# looked for the refused profile's old wording): every GPU suite in the full bundle, carried
# after `scripts/device-slim --keep=run211,run117`; then one symmetric sweep.
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included.
#   bash docs/evidence/run211/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run211 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
.device/bin/streampipe sweep --grid=symmetric --issue=streams,graph --profile=$P \
  --output=$R/sweep-1.csv --summary=$R/summary-1.md 2> $R/sweep-1.log
echo "sweep rc=$? ${SECONDS}s"; grep "calibrated median" $R/sweep-1.log
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run211.tgz run211 && rm -rf $R
