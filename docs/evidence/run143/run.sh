# Run 143 (session 23, f6a7825: the kernel's halves and Abandon): every GPU test; two more
# histogram pairs (a: halves, b: --no-kernel-halves); streampipe histogram (automatic mode, its
# measurement now with the halves) against the CPU's output.
# `bash docs/evidence/run143/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run143 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 200 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
P=docs/evidence/run117/h100.toml
for k in 5 6; do
  for s in a b; do
    flag=--kernel-halves; [ $s = b ] && flag=--no-kernel-halves
    timeout 70 .device/bin/streampipe sweep --grid=histogram $flag --issue=streams,graph --profile=$P \
      --output=$R/hist-$s$k.csv --summary=$R/hist-summary-$s$k.md 2> $R/hist-$s$k.log; echo "histogram sweep $s$k ($flag) rc=$? ${SECONDS}s"
  done
done
S=.device/bin/streampipe
for size in 176x144 704x576; do
  w=${size%x*}; h=${size#*x}
  $S histogram --device=cpu --synthetic=section44 --frames=512 --width=$w --height=$h --output=$R/cpu-$size.csv 2>> $R/log.txt
  $S histogram --synthetic=section44 --frames=512 --width=$w --height=$h --verify --output=$R/gpu-$size.csv 2>> $R/log.txt
  rc=$?; cmp -s $R/cpu-$size.csv $R/gpu-$size.csv && same=identical || same=DIFFERENT
  echo "$size rc=$rc output $same to the CPU's" | tee -a $R/stdout.txt
done
rm -f $R/*-*x*.csv; gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run143.tgz run143
