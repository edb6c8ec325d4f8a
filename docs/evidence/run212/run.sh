# Run 212 (session 37): the refactor from reading the whole change (5663bec: LoadDeviceProfile
# shared by LoadOrCalibrate and the sweep's resume, StagedFile::Finish, behaviour unchanged):
# every GPU suite in the full bundle, carried after `scripts/device-slim --keep=run212,run117`;
# then one symmetric sweep (the benchmark the sweep's code paths serve) with every output.
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included
# (now also a resume refused, 78, for another driver's profile); the sweep exits 0 with 289
# lines, no .partial file and 6 traces.
#   bash docs/evidence/run212/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run212 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
.device/bin/streampipe sweep --grid=symmetric --issue=streams,graph --profile=$P \
  --output=$R/sweep-1.csv --summary=$R/summary-1.md --trace-dir=$R/traces 2> $R/sweep-1.log
echo "sweep rc=$? ${SECONDS}s; $(wc -l < $R/sweep-1.csv) lines; partial files: $(find $R -name '*.partial' | wc -l); traces: $(ls $R/traces | wc -l)"
grep "calibrated median" $R/sweep-1.log
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run212.tgz run212 && rm -rf $R
