# Run 176 (session 30): run 175 again on the next lease (the device time left: five sweeps at most). Run 175: where a visit's samples stand against the rounds, batch by batch. The
# symmetric add-scalar grid (the baseline's, where the measurement repeats within 10 % on a quiet
# lease and the model's misses are single visits read 10-18 % slow), both issue modes, with every
# batch of each kept adaptive run traced (--adaptive-trace), as many sweeps as fit. The current
# code (the controller of 9f58ca1).
#   bash docs/evidence/run176/run.sh     # with .device.txz carried; everything in $OUT/run176.tgz
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run176 && mkdir -p $R && nvidia-smi > $R/gpu.txt
P=docs/evidence/run117/h100.toml
for i in 1 2 3 4 5 6 7 8; do
  [ $SECONDS -gt 250 ] && break
  timeout $((330 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md \
    --adaptive-trace=$R/trace-$i.csv 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run176.tgz run176 && rm -rf $R
