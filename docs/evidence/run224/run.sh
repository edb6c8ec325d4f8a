# Run 224 (session 39): the final code (78bbc2d: the review's mends to bf0335f, the sweep's seven
# keys as variables and HistogramKernelName a switch again; behaviour unchanged) on the GPU. The
# full bundle, carried after `scripts/device-slim --keep=run224,run117`.
# Criteria, written before the run:
#  A. every GPU suite passes: adaptive 8, cli_gpu 4, core 242, resources 7, fault 3, histogram 6,
#     pipeline 36, video 124;
#  B. the smoke plan (bench/sweeps/smoke.toml) writes its 40 rows.
#   bash docs/evidence/run224/run.sh
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run224 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/adaptive_gpu_test.log | head -28
grep "^run [01]:" $R/tests/adaptive_gpu_test.log | cut -c1-60
.device/bin/streampipe sweep --config=bench/sweeps/smoke.toml --profile=docs/evidence/run117/h100.toml \
  --output=$R/sweep-smoke.csv --summary=$R/summary-smoke.md 2> $R/sweep-smoke.log
echo "smoke rc=$? ${SECONDS}s rows $(($(wc -l < $R/sweep-smoke.csv) - 1))"
gzip $R/*.csv $R/*.log
tar -C $OUT -czf $OUT/run224.tgz run224 && rm -rf $R
