# Run 158 (session 27): does the host's issue time depend on the CPU core it runs on, and does
# pinning the issuing process to one core make it repeat better?  1) the topology; 2) issue_cost
# pinned to each core in turn (taskset), and five times unpinned; 3) the matmul and histogram
# grids (where the host bounds most points), pinned to the scan's fastest core against unpinned,
# in ABBAAB order.
#   bash docs/evidence/run158/run.sh     # with .device.txz carried; logs under $OUT/run158
set -u
SECONDS=0
tar -xJf .device.txz && echo "unpacked in ${SECONDS}s: $(du -sh .device | cut -f1)"
. .device/env.sh
R=$OUT/run158 && mkdir -p $R && nvidia-smi > $R/gpu.txt
{ nvidia-smi topo -m; lscpu; cat /sys/devices/system/node/node*/cpulist 2>/dev/null;
  cat /proc/cmdline; grep -m3 MHz /proc/cpuinfo; uptime; } > $R/topology.txt 2>&1
N=$(nproc)
for c in $(seq 0 $((N-1))); do
  echo "== core $c"; taskset -c $c .device/bin/issue_cost --rounds=21 2>&1
done > $R/issue-per-core.txt
for i in 1 2 3 4 5; do echo "== unpinned $i"; .device/bin/issue_cost --rounds=21 2>&1; done \
  > $R/issue-unpinned.txt
echo "scan ${SECONDS}s"
# The fastest core: lowest h2d cost at 64 KiB (column 12 of the sizes).
C=$(awk '/^== core/{c=$3} /^h2d/{print $13, c}' $R/issue-per-core.txt | sort -n | head -1 | cut -d' ' -f2)
echo "fastest core $C" | tee $R/core.txt
for i in 1 2 3 4 5; do echo "== pinned $C $i"; taskset -c $C .device/bin/issue_cost --rounds=21 2>&1; done \
  > $R/issue-pinned.txt
P=docs/evidence/run117/h100.toml
k=0
for s in a b b a a b; do
  k=$((k+1)); pre=""; [ $s = a ] && pre="taskset -c $C"
  timeout 120 $pre .device/bin/streampipe sweep --grid=matmul,histogram --issue=streams,graph \
    --profile=$P --output=$R/sweep-$s$k.csv --summary=$R/summary-$s$k.md 2> $R/sweep-$s$k.log
  echo "sweep $s$k (${pre:-unpinned}) rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$s$k.log
done
gzip $R/*.csv $R/*.log
# Added after the run: the sweeps' files (more than the device tool returns one by one) did not
# come back from the run as made; sweeps.txt keeps its printed output. Rerun, they come packed:
tar -C $R -czf $OUT/run158-sweeps.tgz $(cd $R && ls sweep-* summary-b*) topology.txt && rm -f $R/sweep-*
