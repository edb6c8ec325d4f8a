# Run 151 (session 25, the final code: a844b5a's controller): the bundle carried packed
# (`scripts/device-bundle --pack`, .device.txz, 4.0 MB for the whole 30 MB bundle; the tracked
# tree is now over 50 MB of the 64 MB the device tool carries), unpacked there, every GPU test.
#   bash docs/evidence/run151/run.sh     # with .device.txz carried; logs under $OUT/run151
set -u
SECONDS=0
tar -xJf .device.txz && echo "unpacked in ${SECONDS}s: $(du -sh .device | cut -f1)"
R=$OUT/run151 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/logs | tee $R/gpu-tests.txt
echo "rc=${PIPESTATUS[0]} ${SECONDS}s"   # (run 151 printed tee's rc; each test's rc=0 is above)
# One file for the logs (the tool returns only a few files; run 151's first call lost five
# tests' logs that way, their summary lines are in gpu-tests.txt).
gzip $R/logs/*.log && tar -C $R -czf $R/logs.tgz logs && rm -rf $R/logs
