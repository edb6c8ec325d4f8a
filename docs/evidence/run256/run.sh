# Run 256 (session 45): pipeline_bench after the second review's mends (7b568b7: a failure kept
# as a flag, --csv's header where no paired point ran), on one H100 (nvidia-h100-x1); a bundle of
# pipeline_bench alone.
# Criterion, written before the run: four paired points exit 0 with a CSV of four rows and its
# header; BM_IssueMode alone with --csv exits 0 and writes the header alone; an unwritable --csv
# exits 74; a filter that matches nothing exits 64.
#   bash docs/evidence/run256/run.sh   (on the GPU machine, .device.txz carried)
set -u
SECONDS=0
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run256 && mkdir -p $R && nvidia-smi -L > $R/gpu.txt && cat $R/gpu.txt
B=.device/bin
timeout 120 $B/pipeline_bench '--benchmark_filter=BM_Paired/(1|1000)/(1|8)/' \
  --csv=$R/paired.csv > $R/paired.txt 2>&1
echo "paired rc=$? ($(grep -c . $R/paired.csv) csv lines) ${SECONDS}s"
grep 'pipeline/hand' $R/paired.txt
timeout 120 $B/pipeline_bench '--benchmark_filter=BM_IssueMode/0/1/' --csv=$R/issue.csv \
  > $R/issue.txt 2>&1
echo "issue mode alone rc=$? (csv: $(cat $R/issue.csv | tr '\n' '|'))"
timeout 120 $B/pipeline_bench '--benchmark_filter=BM_Paired/1/1/' \
  --csv=/nonexistent-dir/p.csv > $R/p-74.txt 2>&1
echo "unwritable --csv rc=$? ($(tail -1 $R/p-74.txt))"
timeout 60 $B/pipeline_bench --benchmark_filter=BM_Nothing > $R/p-64.txt 2>&1
echo "filter matching nothing rc=$? ($(tail -1 $R/p-64.txt))"
echo "done ${SECONDS}s"
tar -C $OUT -czf $OUT/run256.tgz run256 && rm -rf $R
