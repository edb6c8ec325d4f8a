# Run 200 (session 36): the GPU tests of session 35's final code, 7ed2131 (the anchor check's
# plan marked, a plan whose timings the controller rejects given back, the sweep's deviation
# without the anchor read from one comparison), every suite, in the full bundle
# (`scripts/device-bundle --pack`, carried after `scripts/device-slim --keep=run200,run117`),
# then sweeps of that code (one whole grid, symmetric ones while time lasts).
# Criterion, written before the run: every GPU suite passes. The sweeps carry no criterion; their
# rows go into docs/results.md as they come.
#   bash docs/evidence/run200/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run200 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
timeout $((460 - SECONDS)) .device/bin/streampipe sweep --grid=all --issue=streams,graph \
  --profile=$P --output=$R/sweep-all1.csv --summary=$R/summary-all1.md 2> $R/sweep-all1.log
echo "sweep all1 rc=$? ${SECONDS}s"
i=0
while [ $SECONDS -lt 400 ]; do
  i=$((i + 1))
  timeout $((460 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run200.tgz run200 && rm -rf $R
