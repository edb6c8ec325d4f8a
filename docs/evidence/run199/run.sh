# Run 199 (session 35): the final code's GPU tests, every suite (the full bundle,
# `scripts/device-bundle --pack`, carried after `scripts/device-slim --keep=run196,run199`: the
# tracked tree out of the way), then more sweeps of the current code for the anchor's exact pair
# (run 196's judge_pair.py; no criterion rides on them: runs 196-197 decided it).
#   bash docs/evidence/run199/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run199 && mkdir -p $R && nvidia-smi > $R/gpu.txt
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
tar -C $OUT -czf $OUT/run199.tgz run199 && rm -rf $R
