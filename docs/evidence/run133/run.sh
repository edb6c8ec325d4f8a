# Run 133 (session 22): the final histogram (kShared merged in clusters, the shape rule of run
# 132): every GPU test; histogram_shapes; the histogram grid with each kernel, three sweeps a
# side alternating; two full sweeps (the whole grid, run 117's profile) of the final code.
# `bash docs/evidence/run133/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run133 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
timeout 60 .device/bin/histogram_shapes > $R/shapes.txt 2>&1; echo "shapes rc=$? ${SECONDS}s"; grep -E "^==|shared" $R/shapes.txt
P=docs/evidence/run117/h100.toml
for k in 1 2 3; do
  for s in a b; do
    kern=shared; [ $s = b ] && kern=shared-atomic
    timeout 60 .device/bin/streampipe sweep --grid=histogram --histogram-kernel=$kern --issue=streams,graph --profile=$P \
      --output=$R/hist-$s$k.csv --summary=$R/hist-summary-$s$k.md 2> $R/hist-$s$k.log; echo "histogram sweep $s$k ($kern) rc=$? ${SECONDS}s"
  done
done
for k in 1 2; do
  timeout 200 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-h$k.csv --summary=$R/summary-h$k.md 2> $R/sweep-h$k.log; echo "sweep h$k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-h$k.log
  echo "  drift events: $(grep -o 'drift:[0-9]*->[0-9]*@[0-9]*' $R/sweep-h$k.log | wc -l), kept: $(grep -o '(kept)' $R/sweep-h$k.log | wc -l)"
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run133.tgz run133
