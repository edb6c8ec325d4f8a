# Run 125 (session 21): how well a non-streamed measurement repeats its parts, per
# configuration (the sweep log's new "non-streamed parts" line: spread of each part over the
# rounds' ~10 measurements, and how many pairs pass the kept-n rule's shape test at 10 %), on the
# matrix-product and histogram grids, where no drift re-measurement kept n in runs 121 and 123.
# `bash docs/evidence/run125/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run125 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 300 .device/bin/streampipe sweep --grid=matmul,histogram,symmetric --issue=streams,graph --profile=docs/evidence/run117/h100.toml \
  --output=$R/sweep.csv --summary=$R/summary.md 2> $R/sweep.log; echo "sweep rc=$? ${SECONDS}s"
grep -E "^  [a-z]|non-streamed parts" $R/sweep.log | paste - - | sed -E 's/ +/ /g' | cut -c1-400
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run125.tgz run125
