# Run 282 (session 50): the code after the read-through of sessions 49-50 (WithMessage in the
# pipeline's combined error; one SceneFormat for the synthetic source), on whatever GPU
# `device` lends (no H100 kind was offered).
# Criteria, written before the run:
#  1. scripts/gpu-evidence tests exits 0 and every GPU suite passes: adaptive 10, cli_gpu 6,
#     core 274, resources 9, fault 4, histogram 6, pipeline 46 and the two-device test
#     skipped, video 127;
#  2. scripts/demo's GPU path (test/scripts/demo_test.sh) exits 0;
#  3. histogram --device=gpu --synthetic=resolution-changes (the scenes' formats) gives the
#     same histograms as --device=cpu, byte for byte.
#   bash docs/evidence/run282/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run282 && mkdir -p $R && nvidia-smi > $R/gpu.txt
scripts/gpu-evidence tests $R/ge .device > $R/gpu-tests.txt 2>&1
echo "1. gpu-evidence tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt | head -30
bash test/scripts/demo_test.sh "$PWD" "$PWD/.device/bin/streampipe" > $R/demo.txt 2>&1
echo "2. demo rc=$? ${SECONDS}s"; tail -1 $R/demo.txt
for d in gpu cpu; do
  .device/bin/streampipe histogram --device=$d --quiet --synthetic=resolution-changes \
    --width=704 --height=576 --frames=600 --scene-length=50 --output=$R/rc-$d.csv > $R/rc-$d.txt 2>&1
  echo "3. resolution-changes on $d rc=$? lines=$(wc -l < $R/rc-$d.csv)"
done
cmp $R/rc-gpu.csv $R/rc-cpu.csv && echo "3. gpu = cpu"
echo "done ${SECONDS}s"
rm -f $R/rc-gpu.csv && gzip $R/rc-cpu.csv
tar -C $OUT -czf $OUT/run282.tgz run282 && rm -rf $R
