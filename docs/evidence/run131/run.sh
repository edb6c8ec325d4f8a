# Run 131 (session 22): the histogram merged in thread-block clusters (kShared: no memset, no
# global atomics) against the merge with global atomics after a memset (kSharedAtomic, the
# kernel before), in one binary.
#  1. every GPU test (the histogram's against the CPU reference, every kernel);
#  2. histogram_bench sizes with each kernel (frames/s from device time), twice, alternating;
#  3. the histogram grid of `streampipe sweep` with each kernel, four sweeps a side, alternating
#     (median_ms and issue_ms per n; the calibrated model's error).
# `bash docs/evidence/run131/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run131 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 170 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
for k in 1 2; do
  for kern in shared shared-atomic; do
    timeout 120 .device/bin/histogram_bench sizes --kernel=$kern --cont-batches=300 > $R/bench-$kern-$k.txt 2>&1; echo "bench $kern $k rc=$? ${SECONDS}s"
  done
done
P=docs/evidence/run117/h100.toml
for k in 1 2 3 4; do
  for s in a b; do
    kern=shared; [ $s = b ] && kern=shared-atomic
    timeout 100 .device/bin/streampipe sweep --grid=histogram --histogram-kernel=$kern --issue=streams,graph --profile=$P \
      --output=$R/sweep-$s$k.csv --summary=$R/summary-$s$k.md 2> $R/sweep-$s$k.log; echo "sweep $s$k ($kern) rc=$? ${SECONDS}s"
    grep "calibrated median" $R/sweep-$s$k.log
  done
done
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run131.tgz run131
