# Run 208 (session 37): the sweep's rows record their settings (ce56f2d) and --trace-dir's
# traces are staged: every GPU suite in the full bundle, carried after
# `scripts/device-slim --keep=run208,run117`; then one whole grid and symmetric sweeps of that
# code while time lasts (the library the sweep scores is unchanged since session 32).
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included
# (the settings column, the summary's settings, --resume refusing another --held/--probe-ratio
# and another profile, accepting the same profile re-dated). The sweeps carry no criterion;
# their rows go into docs/results.md as they come.
#   bash docs/evidence/run208/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run208 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -h "listed twice\|this sweep's\|resuming" $R/tests/cli_gpu_test.log | head -8
P=docs/evidence/run117/h100.toml
timeout $((500 - SECONDS)) .device/bin/streampipe sweep --grid=all --issue=streams,graph \
  --profile=$P --output=$R/sweep-all1.csv --summary=$R/summary-all1.md 2> $R/sweep-all1.log
echo "sweep all1 rc=$? ${SECONDS}s"
i=0
while [ $SECONDS -lt 440 ]; do
  i=$((i + 1))
  timeout $((540 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
tail -3 $R/summary-all1.md
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run208.tgz run208 && rm -rf $R
