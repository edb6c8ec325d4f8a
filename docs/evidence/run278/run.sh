# Run 278 (session 49): the code after the second review (the command line: TOML reading, FIFO
# outputs, messages), on whatever GPU `device` lends.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 271, resources 8, fault 4,
#     histogram 6, pipeline 45 and the two-device test skipped, video 127;
#  2. `calibrate --quick --output=FIFO` whose reader opens 2 s after the command starts exits 0,
#     and the reader gets a whole profile, which `advise --profile` loads (exit 0);
#  3. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0.
#   bash docs/evidence/run278/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run278 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
T=$(mktemp -d) && mkfifo $T/profile.fifo
( sleep 2; cat $T/profile.fifo > $R/profile-from-fifo.toml ) &
timeout 120 .device/bin/streampipe calibrate --quick --output=$T/profile.fifo > $R/calibrate-fifo.txt 2>&1
echo "2. calibrate to a FIFO rc=$? ${SECONDS}s"; wait; tail -3 $R/calibrate-fifo.txt; head -3 $R/profile-from-fifo.toml
.device/bin/streampipe advise --h2d-ms=1 --kernel-ms=0.1 --d2h-ms=1 --profile=$R/profile-from-fifo.toml > $R/advise.txt 2>&1
echo "2. advise on it rc=$?"; grep -E "device:|chosen" $R/advise.txt
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "3. demo rc=$? ${SECONDS}s"; tail -2 $R/demo.txt
tar -C $OUT -czf $OUT/run278.tgz run278 && rm -rf $R
