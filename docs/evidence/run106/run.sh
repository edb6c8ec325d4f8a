# Run 106 (session 18): where does the 2 MiB matmul's graph launch step at n = 128 come from?
# The matmul grid as graphs and call by call for p = 256..1024 in finer steps, n = 32..128 in
# steps of 32, twice; then once with CUDA_DEVICE_MAX_CONNECTIONS=32. `bash docs/evidence/run106/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run106 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2 q32; do
  env=""; [ $k = q32 ] && env="CUDA_DEVICE_MAX_CONNECTIONS=32"
  env $env timeout 150 .device/bin/streampipe sweep --grid=matmul --matmul-p=256,384,512,640,768,1024 --issue=graph,streams \
    --streams=32,64,96,128 --profile=docs/evidence/run98/h100.toml --output=$R/sweep-$k.csv 2> $R/sweep-$k.log; echo "sweep $k rc=$? ${SECONDS}s"
done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run106.tgz run106
