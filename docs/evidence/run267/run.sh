# Run 267 (session 47): the breadth-first issue share over the paper's whole grid (add-scalar
# symmetric and asymmetric, matmul, histogram; both issue modes) on one H200, A (default, 0)
# then B (--breadth-first-issue-share=0.333), with run 257's profile; the bundle of run 266.
# Criterion, written before the run:
#  1. both sweeps exit 0; each trace replays to its own prediction within 0.1 % in both modes
#     (criteria.sh afterwards, on the CPU);
#  2. the first streamed n differs between A and B only in breadth-first configurations (the
#     option is zeroed elsewhere), listed with the kernel's share of the batch (criteria.sh);
#  3. B: calibrated median error <= 3 % and mean choice >= 0.98 in both modes. The maximum and
#     the worst choice are reported, A against B, not judged (one sweep each).
#   bash docs/evidence/run267/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run267 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for arm in A B; do
  flag=""; [ $arm = B ] && flag="--breadth-first-issue-share=0.333"
  timeout 280 .device/bin/streampipe sweep --config=bench/sweeps/paper.toml \
    --profile=docs/evidence/run257/h200-1.toml $flag --output=$R/sweep-$arm.csv \
    --summary=$R/summary-$arm.md --adaptive-trace=$R/trace-$arm.csv 2> $R/sweep-$arm.log
  echo "sweep $arm rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): calibrated' $R/sweep-$arm.log | cut -c1-100
done
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run267.tgz run267 && rm -rf $R
