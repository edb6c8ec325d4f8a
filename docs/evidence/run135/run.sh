# Run 135 (session 22): the final histogram after the review (one block a frame as a plain
# launch up to 32768 pixels; the merge spread over the block's threads; histogram_shapes timed
# behind a gate, its output check on the launch's own stream): every GPU test, histogram_shapes,
# and the histogram grid with each kernel, three sweeps a side alternating.
# `bash docs/evidence/run135/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run135 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
timeout 100 .device/bin/histogram_shapes > $R/shapes.txt 2>&1; echo "shapes rc=$? ${SECONDS}s"; cat $R/shapes.txt
P=docs/evidence/run117/h100.toml
for k in 1 2 3; do
  for s in a b; do
    kern=shared; [ $s = b ] && kern=shared-atomic
    timeout 60 .device/bin/streampipe sweep --grid=histogram --histogram-kernel=$kern --issue=streams,graph --profile=$P \
      --output=$R/hist-$s$k.csv --summary=$R/hist-summary-$s$k.md 2> $R/hist-$s$k.log; echo "histogram sweep $s$k ($kern) rc=$? ${SECONDS}s"
    grep "calibrated median" $R/hist-$s$k.log | sed 's/; single.*//'
  done
done
grep "merged in" $R/hist-a1.log
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run135.tgz run135
