# Run 210 (session 37): the second review's mends (6249031: a repeated issue mode, the adaptive
# trace kept by a refused sweep and appended to on --resume, the settings column validated):
# every GPU suite in the full bundle, carried after `scripts/device-slim --keep=run210,run117`;
# then two sweeps of the matmul grid with every adaptive batch traced, to see which n the
# adaptive run of the 0.5 MiB matmul visits where n* = 2 (run 208's largest misses, at n = 64
# and 128 as graphs).
# Criterion, written before the run: every GPU suite passes, cli_gpu_test's 3 tests included.
# The sweeps carry no criterion.
#   bash docs/evidence/run210/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run210 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
for i in 1 2; do
  timeout 200 .device/bin/streampipe sweep --grid=matmul --issue=streams,graph --profile=$P \
    --output=$R/sweep-m$i.csv --summary=$R/summary-m$i.md --adaptive-trace=$R/trace-m$i.csv \
    2> $R/sweep-m$i.log
  echo "sweep m$i rc=$? ${SECONDS}s"
  grep "calibrated median" $R/sweep-m$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run210.tgz run210 && rm -rf $R
