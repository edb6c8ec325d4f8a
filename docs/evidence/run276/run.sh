# Run 276 (session 49): the session's final code (after the review of its diff), on whatever
# GPU `device` lends.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 271, resources 8, fault 4,
#     histogram 6, pipeline 45 and the two-device test skipped, video 127;
#  2. `histogram --device=gpu` on a 38-byte Y4M claiming 8192x8192 mono frames, and on a file
#     of two 64x64 frames followed by such a header, exits 65 naming the frame cut short (the
#     batch sized to what is left of the file: one frame), and on a whole 3-frame file 0;
#  3. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0.
#   bash docs/evidence/run276/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run276 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "1. gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -40
T=$(mktemp -d)
printf 'YUV4MPEG2 W8192 H8192 Cmono\nFRAME\nabcdefghij' > $T/short.y4m
{ printf 'YUV4MPEG2 W64 H64 Cmono\n'; for i in 1 2; do printf 'FRAME\n'; head -c 4096 /dev/urandom; done;
  printf 'YUV4MPEG2 W8192 H8192 Cmono\nFRAME\nabc'; } > $T/concat.y4m
{ printf 'YUV4MPEG2 W640 H480 Cmono\n'; for i in 1 2 3; do printf 'FRAME\n'; head -c 307200 /dev/urandom; done; } > $T/whole.y4m
for f in short concat whole; do
  .device/bin/streampipe histogram --device=gpu --quiet --output=$T/$f.csv $T/$f.y4m > $R/histogram-$f.txt 2>&1
  echo "2. histogram $f rc=$? ${SECONDS}s"; tail -c 400 $R/histogram-$f.txt; wc -l < $T/$f.csv 2>/dev/null
done
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "3. demo rc=$? ${SECONDS}s"; tail -2 $R/demo.txt
tar -C $OUT -czf $OUT/run276.tgz run276 && rm -rf $R
