# Run 185 (session 32): e0130e1, a measured n predicted by its own time (the host-bound visited n
# included; before, the model's larger of the corrected device part and the issue line). One
# whole-grid sweep, then sweeps of the symmetric add-scalar grid as time allows. Each sweep's log
# gives, at every n its adaptive runs measured, the model's value (`adaptive model at the
# measured n`): the prediction before the change on the same run, so each point is an exact pair.
#   bash docs/evidence/run185/run.sh   # .device.txz of `scripts/device-bundle --pack --only=streampipe`
# Criterion, written before the run (docs/evidence/run185/paired.py over its sweeps):
#   over the host-bound measured n (issue >= 0.8 of the time) of all sweeps, the new prediction
#   has fewer points over 10 % than the model's value and a lower median error; and over all
#   points of the symmetric grid, no more points over 10 % than with the model's values put back.
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run185 && mkdir -p $R && nvidia-smi > $R/gpu.txt
B=.device/bin/streampipe
P=docs/evidence/run117/h100.toml
timeout 300 $B sweep --grid=all --issue=streams,graph --profile=$P \
  --output=$R/sweep-all.csv --summary=$R/summary-all.md 2> $R/sweep-all.log
echo "sweep all rc=$? ${SECONDS}s"
grep -E "calibrated median|the measurement itself" $R/sweep-all.log
for i in 1 2 3 4 5 6 7; do
  [ $SECONDS -gt 520 ] && break
  timeout $((590 - SECONDS)) $B sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-$i.csv --summary=$R/summary-$i.md 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run185.tgz run185 && rm -rf $R
