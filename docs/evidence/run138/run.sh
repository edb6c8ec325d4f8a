# Run 138 (session 22): `streampipe histogram` on the GPU with each kernel, checked against the
# CPU (--verify) and against the CPU's output file, after the command sets the configured device
# before making its launchers (c168104): synthetic section-4.4 frames at 176x144, 704x576 and
# 1920x1080, and scene cuts in rgb24.
# `bash docs/evidence/run138/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run138 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
S=.device/bin/streampipe
for size in 176x144 704x576 1920x1080; do
  w=${size%x*}; h=${size#*x}
  $S histogram --device=cpu --synthetic=section44 --frames=512 --width=$w --height=$h --output=$R/cpu-$size.csv 2>> $R/log.txt
  for k in shared shared-atomic global; do
    $S histogram --synthetic=section44 --frames=512 --width=$w --height=$h --kernel=$k --verify --output=$R/gpu-$size-$k.csv 2>> $R/log.txt
    rc=$?; cmp -s $R/cpu-$size.csv $R/gpu-$size-$k.csv && same=identical || same=DIFFERENT
    echo "$size $k rc=$rc output $same to the CPU's"
  done
done
$S histogram --device=cpu --synthetic=scene-cuts --pixel-format=rgb24 --frames=300 --width=351 --height=287 --output=$R/cpu-rgb.csv 2>> $R/log.txt
$S histogram --synthetic=scene-cuts --pixel-format=rgb24 --frames=300 --width=351 --height=287 --verify --output=$R/gpu-rgb.csv 2>> $R/log.txt
rc=$?; cmp -s $R/cpu-rgb.csv $R/gpu-rgb.csv && same=identical || same=DIFFERENT; echo "351x287 rgb24 shared rc=$rc output $same to the CPU's"
rm -f $R/*.csv; tail -5 $R/log.txt
tar -C /tmp -czf $OUT/run138.tgz run138
