# Run 162 (session 29: adaptive.prior_samples, a visited n's residual weighed k / (k + prior)
# against n*'s): every GPU test, the CLI paths of run 160, then four whole-grid sweeps on run
# 117's profile, the adaptive run on until calibrated (the default), alternating
# --prior-samples=2 and 4. The prior moves predictions only (no decision reads them), and every
# sweep writes the prediction without it too (pred_calibrated_samples): each sweep is its own
# paired comparison, prior against none, on the same adaptive run.
#   bash docs/evidence/run162/run.sh     # with .device.txz carried; everything in $OUT/run162.tgz
# (3709a48's bundle: the option was reverted after this run)
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run162 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/logs > $R/gpu-tests.txt 2>&1
echo "tests rc=$? ${SECONDS}s"; tail -n 12 $R/gpu-tests.txt
. .device/env.sh 2>/dev/null || true
B=.device/bin/streampipe
{
  $B devices; echo "devices rc=$?"
  $B histogram --synthetic=section44 --frames=512 --verify --output=/dev/null; echo "verify rc=$?"
  env --default-signal=PIPE $B histogram --synthetic=scene-cuts --frames=20000 --width=64 \
    --height=64 | head -c 10 > /dev/null; echo "closed pipe rc=${PIPESTATUS[0]}"
} > $R/cli.txt 2>&1
cat $R/cli.txt
gzip $R/logs/*.log; tar -C $R -czf $R/test-logs.tgz logs && rm -rf $R/logs
P=docs/evidence/run117/h100.toml
i=0
for prior in ${PRIORS:-2 4 2 4}; do
  i=$((i+1))
  timeout 130 $B sweep --grid=all --issue=streams,graph --profile=$P --prior-samples=$prior \
    --output=$R/sweep-p$prior.$i.csv --summary=$R/summary-p$prior.$i.md 2> $R/sweep-p$prior.$i.log
  echo "sweep p$prior.$i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-p$prior.$i.log
  grep -o "Kept runs.*" $R/sweep-p$prior.$i.log
done
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run162.tgz run162 && rm -rf $R
