# Run 71 (session 11): the review's mends (calibrate prints the written model's misfit over
# every path): GPU tests and calibrate three times.
cd .device && . ./env.sh && cd .. && R=$OUT/run71 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2 3; do
  .device/bin/streampipe calibrate --output=$R/h100-$k.toml > $R/calibrate-$k.txt 2>&1
  echo "calibrate $k rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$k.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$k.txt) us, g $(grep "^  g " $R/calibrate-$k.txt | cut -c12-), $(grep -c 'note: g h2d' $R/calibrate-$k.txt) gap notes ${SECONDS}s"
done
cd $OUT && tar czf run71.tgz run71 && rm -rf run71
