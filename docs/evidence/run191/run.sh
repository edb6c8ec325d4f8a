# Run 191 (session 34; written before the run): the current code (8b9d30c: e6d036e's library,
# the sweep summary's new row "calibrated, beyond the batches' p10-p90") on the H100:
#   1. every GPU test (scripts/device-bundle --pack, the whole bundle);
#   2. two whole-grid sweeps (add-scalar symmetric and asymmetric, matmul, histogram; both issue
#      modes): the current code's whole-grid figures (the last were run 185's, e0130e1), and how
#      many of the whole grid's points over 10 % lie within their batches' own p10-p90 (the new
#      row), where the host bounds the small batches at large n;
#   3. one symmetric sweep, as time allows.
#   bash docs/evidence/run191/run.sh
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run191 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; tail -8 $R/gpu-tests.txt
P=docs/evidence/run117/h100.toml
for i in 1 2; do
  timeout 220 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$P \
    --output=$R/sweep-all$i.csv --summary=$R/summary-all$i.md 2> $R/sweep-all$i.log
  echo "sweep all$i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-all$i.log
  sed -n '/^Repeatability/,/agreeing/p' $R/sweep-all$i.log
done
if [ $SECONDS -lt 480 ]; then
  timeout $((585 - SECONDS)) .device/bin/streampipe sweep --grid=symmetric --issue=streams,graph \
    --profile=$P --output=$R/sweep-sym.csv --summary=$R/summary-sym.md 2> $R/sweep-sym.log
  echo "sweep sym rc=$? ${SECONDS}s"
  sed -n '/^Repeatability/,/agreeing/p' $R/sweep-sym.log
fi
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run191.tgz run191 && rm -rf $R
