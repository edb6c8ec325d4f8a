# Run 263 (session 46): the read-through's mend (LoadOrCalibrate's why empty where it loaded)
# on one H200 (no H100 kind is lent this session).
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 262, resources 7, fault 3,
#     histogram 6, pipeline 40 and the two-device test skipped (one GPU), video 124;
#  2. `sweep --grid=quick` with this card's profile from driver 1 prints the "calibrated again
#     and written over" line; run again with the profile it wrote, it prints no --profile line.
#   bash docs/evidence/run263/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run263 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
timeout 60 .device/bin/streampipe calibrate --quick --output=$R/this.toml > /dev/null 2>&1
sed 's/^driver_version = .*/driver_version = 1/' $R/this.toml > $R/stale.toml
for k in 1 2; do
  timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$R/stale.toml --output=$R/q$k.csv > $R/cli-$k.txt 2>&1
  echo "sweep $k rc=$? ($(grep -c -- '--profile:' $R/cli-$k.txt) --profile lines)"; grep -- '--profile:' $R/cli-$k.txt
done
gzip $R/*.csv 2>/dev/null
tar -C $OUT -czf $OUT/run263.tgz run263 && rm -rf $R
