# Run 226 (session 39): run 225's lease was quiet (the measurement itself over 10 % at 1 / 9 of
# 492 points) and its whole grid met 10 % at most as graphs (9.8 %), the first whole-grid
# sweep-mode to. On the same warm machine and bundle (78bbc2d, the final code): the whole grid
# (bench/sweeps/paper.toml) three more times, then symmetric sweeps while time lasts, adaptive
# runs traced. Criterion, written before the run: none to pass; the question is whether the
# graph mode's whole grid stays within 10 % on this lease (reported per sweep, with the
# measurement's own repeatability beside it).
#   bash docs/evidence/run226/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run226 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
for i in 1 2 3; do
  timeout $((580 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/paper.toml \
    --profile=$P --output=$R/sweep-all$i.csv --summary=$R/summary-all$i.md \
    --adaptive-trace=$R/trace-all$i.csv 2> $R/sweep-all$i.log
  echo "sweep all$i rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-all$i.log | cut -c1-110
done
i=0
while [ $SECONDS -lt 470 ]; do
  i=$((i + 1))
  timeout $((570 - SECONDS)) .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md \
    --adaptive-trace=$R/trace-$i.csv 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run226.tgz run226 && rm -rf $R
