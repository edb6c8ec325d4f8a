# Run 255 (session 45): the two pipeline tests that ended with exit status 9 under racecheck in
# run 254 (three racecheck processes side by side), now in one racecheck process alone, with the
# host's free memory sampled every 10 s and the kernel log's tail kept. One H100, run 253's bundle.
# Criterion, written before the run: racecheck reports 0 hazards and both tests pass; if the
# process is killed again, the memory samples and the kernel log say whether for memory.
#   bash docs/evidence/run255/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run255 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt && cat $R/gpu.txt
( while true; do echo "$SECONDS $(free -m | awk '/^Mem/{print "used " $3 " MiB, available " $7 " MiB"}')"; sleep 10; done ) > $R/free.txt 2>&1 &
mon=$!
F='PipelineTest.DeviceMemoryAsAHostBufferIsRefused:PipelineTest.MoveAssigningOverAPipelineWithABatchInFlightDeliversItsOutput'
timeout 470 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 \
  .device/bin/pipeline_test "--gtest_filter=$F" > $R/san-racecheck.log 2>&1
echo "racecheck rc=$? ${SECONDS}s $(grep -m1 -oE 'RACECHECK SUMMARY: [0-9]+ hazards? displayed.*' $R/san-racecheck.log) | $(grep -m1 -E '^\[  (PASSED|FAILED)' $R/san-racecheck.log)"
kill $mon
sort -t' ' -k6 -n $R/free.txt | head -2 | sed 's/^/least available: /'
(dmesg 2>&1 | tail -20) > $R/dmesg.txt; grep -i -E 'kill|oom' $R/dmesg.txt | head -5
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run255.tgz run255 && rm -rf $R
