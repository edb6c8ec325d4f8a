# Run 68: the final review's mends (calibration's copy bodies shared, the free slot armed in one
# place): GPU tests, calibrate three times, stationary adaptive_bench once.
cd .device && . ./env.sh && cd .. && R=$OUT/run68 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for k in 1 2 3; do
  .device/bin/streampipe calibrate --output=$R/h100-$k.toml > $R/calibrate-$k.txt 2>&1
  echo "calibrate $k rc=$?: $(grep -o 'largest misfit [0-9.]* %' $R/calibrate-$k.txt), c $(awk '$1=="c"{print $2}' $R/calibrate-$k.txt) us, $(grep -o 'sweep: [0-9.]* GB/s' $R/calibrate-$k.txt), left out: $(grep -c 'left out' $R/calibrate-$k.txt)"
done
timeout 60 .device/bin/adaptive_bench stationary --batches=400 > $R/stationary.txt 2>&1; echo "stationary rc=$? ${SECONDS}s"
tail -n +5 $R/stationary.txt | cut -c1-80
cd $OUT && tar czf run68.tgz run68 && rm -rf run68
