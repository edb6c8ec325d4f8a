# Run 260 (session 46): the code after the review's mends (3445dc7: LoadOrCalibrate reads the
# profile once; pipeline_bench's hand loop and warm-ups checked; the bench wrappers) on one H200.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 262, resources 7, fault 3,
#     histogram 6, pipeline 40 and the two-device test skipped (one GPU), video 124;
#  2. pipeline_bench on four points exits 0 with a CSV of a header and four rows, the pipeline
#     within 2 % of the hand loop at each; adaptive_bench stationary --batches=50 and
#     histogram_bench sizes --cont-batches=50 exit 0 with their tables;
#  3. `sweep --grid=quick --profile=<a copy of run 117's H100 profile>` exits 78 naming both
#     cards, the copy's sha256 unchanged, no CSV; with `--resume` and a profile of this card
#     from another driver, the message ends "(with this card's profile, or a path where none is
#     yet)" and exits 78.
#   bash docs/evidence/run260/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run260 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
timeout 120 .device/bin/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)/' \
  --csv=$R/pipeline_bench.csv > $R/pipeline_bench.txt 2>&1
echo "pipeline_bench rc=$? ($(grep -c . $R/pipeline_bench.csv) csv lines)"; grep 'pipeline/hand' $R/pipeline_bench.txt
timeout 120 .device/bin/adaptive_bench stationary --batches=50 > $R/adaptive-stationary.txt 2>&1
echo "adaptive_bench stationary rc=$? ${SECONDS}s"; tail -7 $R/adaptive-stationary.txt | cut -c1-110
timeout 90 .device/bin/histogram_bench sizes --cont-batches=50 > $R/histogram-sizes.txt 2>&1
echo "histogram_bench sizes rc=$? ${SECONDS}s"; grep -E '^[0-9]+x[0-9]+' $R/histogram-sizes.txt
H=$R/h100-copy.toml && cp docs/evidence/run117/h100.toml $H && sha256sum $H > $R/sha-before.txt
timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$H --output=$R/quick.csv > $R/cli-card.txt 2>&1
echo "sweep with the H100's profile rc=$?"; cut -c1-300 $R/cli-card.txt
sha256sum $H > $R/sha-after.txt; cmp <(cut -d' ' -f1 $R/sha-before.txt) <(cut -d' ' -f1 $R/sha-after.txt) && echo "copy unchanged"
ls $R/quick.csv* 2>&1 | head -2
timeout 60 .device/bin/streampipe calibrate --quick --output=$R/this.toml > /dev/null 2>&1
sed 's/^driver_version = .*/driver_version = 1/' $R/this.toml > $R/stale.toml
printf 'x\n' > $R/r.csv.partial
timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$R/stale.toml --output=$R/r.csv --resume > $R/cli-resume.txt 2>&1
echo "resume with a stale profile rc=$?"; cut -c1-400 $R/cli-resume.txt
gzip $R/*.csv 2>/dev/null
tar -C $OUT -czf $OUT/run260.tgz run260 && rm -rf $R
