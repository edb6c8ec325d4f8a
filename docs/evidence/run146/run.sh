# Run 146 (session 23, 121c85a: the read-through; behaviour unchanged): every GPU test,
# histogram_shapes (each merge's output against shared-atomic's, device time per launch), and
# streampipe histogram against the CPU for every kernel.
# `bash docs/evidence/run146/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run146 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 200 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
timeout 100 .device/bin/histogram_shapes > $R/shapes.txt 2>&1; echo "shapes rc=$? ${SECONDS}s"; grep -E "^==|^shared|DIFFERS" $R/shapes.txt
S=.device/bin/streampipe
for size in 176x144 704x576 1920x1080; do
  w=${size%x*}; h=${size#*x}
  $S histogram --device=cpu --synthetic=section44 --frames=512 --width=$w --height=$h --output=$R/cpu-$size.csv 2>> $R/log.txt
  for k in shared shared-atomic global; do
    $S histogram --synthetic=section44 --frames=512 --width=$w --height=$h --kernel=$k --verify --output=$R/gpu-$size-$k.csv 2>> $R/log.txt
    rc=$?; cmp -s $R/cpu-$size.csv $R/gpu-$size-$k.csv && same=identical || same=DIFFERENT
    echo "$size $k rc=$rc output $same to the CPU's" | tee -a $R/stdout.txt
  done
done
rm -f $R/*.csv
tar -C /tmp -czf $OUT/run146.tgz run146
