# Run 109 (session 19): the current code (60aae89) on the next lease: three full sweeps with
# run 98's profile, then the matmul graph launch around p = 512 (p = 448..576 in steps of 32,
# n = 32..128, as graphs, twice): is the step at n >= 96 p = 512's alone, or a range?
# `bash docs/evidence/run109/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run109 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 3; do
  timeout 150 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=docs/evidence/run98/h100.toml \
    --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$k.log
done
for k in 1 2; do
  timeout 90 .device/bin/streampipe sweep --grid=matmul --matmul-p=448,480,512,544,576 --issue=graph \
    --streams=32,64,96,128 --profile=docs/evidence/run98/h100.toml --output=$R/p512-$k.csv 2> $R/p512-$k.log; echo "p512 $k rc=$? ${SECONDS}s"
done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run109.tgz run109
