# Run 97 (session 17): why the adaptive runs measure their visits to n = 1 of tiny batches slow
# (runs 84-95: median +2.5-3.6 %, up to +18 %, against the rounds; n = 2 and 4 visits are not).
# 1. The matmul and histogram grids, both issue modes, five times, with every batch of each
#    kept adaptive run traced (--adaptive-trace).
# 2. adaptive_bench switch: batches right after a switch of n in a fixed-n pipeline, with host
#    gaps of 0-300 us before each batch, streams and graph.
cd .device && . ./env.sh && cd .. && R=/tmp/run97 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for i in 1 2 3 4 5; do
  timeout 150 .device/bin/streampipe sweep --grid=matmul,histogram --issue=streams,graph \
    --profile=docs/evidence/run95/h100.toml --output=$R/sweep-$i.csv --summary=$R/summary-$i.md \
    --adaptive-trace=$R/trace-$i.csv > $R/sweep-$i.log 2>&1
  echo "sweep $i rc=$? ${SECONDS}s"; tail -4 $R/sweep-$i.log
done
for m in streams graph; do
  timeout 100 .device/bin/adaptive_bench switch --issue=$m --ramp-repeats=7 > $R/switch-$m.txt 2>&1
  echo "switch $m rc=$? ${SECONDS}s"; cat $R/switch-$m.txt
done
tar -C /tmp -czf $OUT/run97.tgz run97  # one file: the lease returns only a few
