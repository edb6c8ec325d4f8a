# Run 203 (session 36): the review's mends (a .partial file with rows never overwritten, links
# and devices, a round of the in-situ fit that no batch allows is no fit) on the GPU: every GPU
# suite in the full bundle (carried after `scripts/device-slim --keep=run203,run117`), six quick
# calibrations each in a fresh process, then by hand: a sweep stopped by `timeout`, a second sweep
# to the same output (must refuse, exit 74, and leave the rows), the rows summarized, the .partial
# removed and the sweep run whole.
# Criterion, written before the run: every GPU suite passes; every calibration exits 0; the second
# sweep exits 74 leaving the .partial file byte for byte; the last sweep exits 0 with no .partial.
#   bash docs/evidence/run203/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run203 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
for i in $(seq 1 6); do
  .device/bin/streampipe calibrate --quick --output=$R/quick-$i.toml 2> $R/quick-$i.log
  echo "calibrate $i rc=$? $(grep -h '^stream_overhead_ms' $R/quick-$i.toml) $(grep -h 'fit:\|warning' $R/quick-$i.log | tr '\n' ' ')"
done
P=docs/evidence/run117/h100.toml
S=".device/bin/streampipe sweep --grid=symmetric --orders=depth-first --issue=streams,graph --profile=$P --output=$R/s.csv"
echo "an earlier sweep" > $R/s.csv
timeout 8 $S 2> $R/s-cut.log; echo "stopped by timeout: rc=$?"
cp $R/s.csv.partial $R/rows-before.csv; echo "partial: $(wc -l < $R/s.csv.partial) lines; s.csv: $(cat $R/s.csv)"
$S 2> $R/s-refused.log; echo "second sweep rc=$? ($(tail -1 $R/s-refused.log))"
cmp $R/s.csv.partial $R/rows-before.csv && echo "partial unchanged"
.device/bin/streampipe sweep --from=$R/s.csv.partial 2> $R/s-from.log; echo "--from rc=$?"
mv $R/s.csv.partial $R/s-cut.csv
$S 2> $R/s-whole.log; echo "whole sweep rc=$? ${SECONDS}s; $(wc -l < $R/s.csv) lines; partial files: $(ls $R/*.partial 2>/dev/null | wc -l)"
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run203.tgz run203 && rm -rf $R
