# Run 157 (session 26, after the read-through of git diff 36e4b33: ComputeOccupancy in 64 bits,
# CapStreams shared by Create and the config): every GPU test, then
# the CLI paths of run 153 again.
#   bash docs/evidence/run157/run.sh     # with .device.txz carried; logs under $OUT/run157
set -u
SECONDS=0
tar -xJf .device.txz && echo "unpacked in ${SECONDS}s: $(du -sh .device | cut -f1)"
R=$OUT/run157 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/logs | tee $R/gpu-tests.txt
echo "tests rc=${PIPESTATUS[0]} ${SECONDS}s"
. .device/env.sh 2>/dev/null || true
B=.device/bin/streampipe
{
  $B devices; echo "devices rc=$?"
  $B histogram --synthetic=section44 --frames=512 --verify --output=/dev/null; echo "verify rc=$?"
  env --default-signal=PIPE $B histogram --synthetic=scene-cuts --frames=20000 --width=64 \
    --height=64 | head -c 10 > /dev/null; echo "closed pipe rc=${PIPESTATUS[0]}"
} > $R/cli.txt 2>&1
cat $R/cli.txt
gzip $R/logs/*.log && tar -C $R -czf $R/logs.tgz logs && rm -rf $R/logs
