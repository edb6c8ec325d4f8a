# Run 225 (session 39): the whole grid (bench/sweeps/paper.toml, both issue modes, adaptive runs
# traced) on the final code (78bbc2d, run 224's bundle), whose library is run 220's in every
# choice and prediction. No criterion: its row (rows.py) against the goals, as measured.
#   bash docs/evidence/run225/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run225 && mkdir -p $R && nvidia-smi > $R/gpu.txt
timeout 560 .device/bin/streampipe sweep --config=bench/sweeps/paper.toml \
  --profile=docs/evidence/run117/h100.toml --output=$R/sweep-all1.csv \
  --summary=$R/summary-all1.md --adaptive-trace=$R/trace-all1.csv 2> $R/sweep-all1.log
echo "sweep all1 rc=$? ${SECONDS}s"
grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-all1.log
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run225.tgz run225 && rm -rf $R
