# Run 114 (session 20): the inline ladder in the pipeline's own shape. Part 1: the new GPU test,
# `streampipe calibrate` twice (three ladders: the pipeline call by call, as graphs, bare copies),
# run 98's profile with the first calibration's call-by-call keys added (h100-inline.toml), then
# sweeps a1 (that profile), b1 (run 98's, no inline path) and a2 with the same binary.
# Part 2: b2, a3, b3. The A/B isolates the inline term with the pipeline's rate on one lease.
# `bash docs/evidence/run114/run.sh 1`, then `... run.sh 2` (part 2 reads part 1's profile from
# docs/evidence/run114/h100-inline.toml once committed, else /tmp/run114-1).
part=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run114-$part && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
sweep() {
  case $1 in a*) prof=$P;; b*) prof=docs/evidence/run98/h100.toml;; esac
  timeout 160 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$prof \
    --output=$R/sweep-$1.csv --summary=$R/summary-$1.md 2> $R/sweep-$1.log; echo "sweep $1 ($prof) rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$1.log
}
if [ "$part" = 1 ]; then
  timeout 60 .device/bin/pipeline_test --gtest_filter='*Inline*' > $R/test-inline.txt 2>&1; echo "inline test rc=$? ${SECONDS}s"; tail -3 $R/test-inline.txt
  for k in 1 2; do
    timeout 60 .device/bin/streampipe calibrate --inline-copies --output=$R/h100-$k.toml > $R/calibrate-$k.txt 2>&1; echo "calibrate $k rc=$? ${SECONDS}s"
    grep -A1 "^  inline" $R/calibrate-$k.txt
  done
  P=$R/h100-inline.toml
  { sed -n '1,/^\[d2h\]/p' docs/evidence/run98/h100.toml | sed '$d'; grep -B1 -E "^inline_(max_bytes|ms_per_byte)" $R/h100-1.toml; echo; sed -n '/^\[d2h\]/,$p' docs/evidence/run98/h100.toml; } > $P
  grep inline $P
  sweep a1; sweep b1; sweep a2
else
  P=docs/evidence/run114/h100-inline.toml; [ -f $P ] || P=/tmp/run114-1/h100-inline.toml
  sweep b2; sweep a3; sweep b3
fi
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run114-$part.tgz run114-$part
