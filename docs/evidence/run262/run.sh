# Run 262 (session 46): the notice of a rewritten profile (the sweep and the histogram say on
# stderr when they calibrated and wrote the profile), on one H200, bundle of this commit's tree.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 262, resources 7, fault 3,
#     histogram 6, pipeline 40 and the two-device test skipped (one GPU), video 124;
#  2. `sweep --grid=quick` with this card's profile from driver 1 exits 0, prints "--profile:
#     <path>: this card's profile from driver 1 (the driver now is 13000): calibrated again and
#     written over", and the file then names driver 13000; `histogram` with pipeline.profile a
#     path where none is yet exits 0 and prints "pipeline.profile: <path> does not exist:
#     calibrated and written there", the file then there; with --quiet, no such line.
#   bash docs/evidence/run262/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run262 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
timeout 60 .device/bin/streampipe calibrate --quick --output=$R/this.toml > /dev/null 2>&1
sed 's/^driver_version = .*/driver_version = 1/' $R/this.toml > $R/stale.toml
timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$R/stale.toml --output=$R/q.csv > $R/cli-stale.txt 2>&1
echo "sweep with a stale profile rc=$?"; grep -- '--profile:' $R/cli-stale.txt
grep '^driver_version' $R/stale.toml
printf '[pipeline]\nprofile = "%s"\n' "$R/new.toml" > $R/config.toml
timeout 120 .device/bin/streampipe histogram --synthetic=section44 --frames=64 --config=$R/config.toml \
  --output=$R/h.csv > $R/cli-new.txt 2>&1
echo "histogram with a new profile path rc=$?"; grep 'pipeline.profile' $R/cli-new.txt; ls $R/new.toml
rm -f $R/new.toml
timeout 120 .device/bin/streampipe histogram --synthetic=section44 --frames=64 --config=$R/config.toml \
  --output=$R/h2.csv --quiet > $R/cli-quiet.txt 2>&1
echo "histogram --quiet rc=$? ($(grep -c 'pipeline.profile' $R/cli-quiet.txt) notice lines)"; ls $R/new.toml
gzip $R/*.csv 2>/dev/null
tar -C $OUT -czf $OUT/run262.tgz run262 && rm -rf $R
