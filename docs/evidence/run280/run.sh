# Run 280 (session 50): the session's mends on the GPU, on whatever GPU `device` lends.
# Criteria, written before the run:
#  1. scripts/gpu-evidence tests exits 0 and every GPU suite passes: adaptive 10, cli_gpu 6,
#     core 273, resources 8, fault 4, histogram 6, pipeline 46 and the two-device test
#     skipped, video 127 (new or changed on the GPU: the fault test's continuous run on a
#     stopped pipeline, the adaptive test's first-error/numbering/negative-count checks, the
#     pipeline's options checked before the device);
#  2. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0;
#  3. histogram --device=gpu: a read that fails (/proc/self/mem) exits 66 naming it; frames
#     through a non-blocking stdin, in two writes, all come through (4), equal to the CPU's.
#   bash docs/evidence/run280/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run280 && mkdir -p $R && nvidia-smi > $R/gpu.txt
scripts/gpu-evidence tests $R/ge .device > $R/gpu-tests.txt 2>&1
echo "1. gpu-evidence tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | head -30
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "2. demo rc=$? ${SECONDS}s"; tail -2 $R/demo.txt
B=.device/bin/streampipe
$B histogram --device=gpu --quiet --width=16 --height=16 /proc/self/mem --output=$R/mem.csv > $R/mem.txt 2>&1
echo "3a. /proc/self/mem rc=$?"; cat $R/mem.txt
head -c 1024 /dev/urandom > $R/two.gray
for d in gpu cpu; do
  { cat $R/two.gray; sleep 0.5; cat $R/two.gray; } | python3 -c "import os, fcntl, sys; fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])" \
    "$PWD/$B" histogram --device=$d --quiet --width=16 --height=16 - --output=$R/nb-$d.csv > $R/nb-$d.txt 2>&1
  echo "3b. non-blocking stdin on $d rc=$? lines=$(wc -l < $R/nb-$d.csv)"; cat $R/nb-$d.txt
done
cmp $R/nb-gpu.csv $R/nb-cpu.csv && echo "3b. gpu = cpu"
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run280.tgz run280 && rm -rf $R
