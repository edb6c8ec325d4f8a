# Run 116 (session 20): the pipeline's inline ladders combined (n = 8, 32, 128, call by call
# and as graphs; CombineInlineFits). Part 1: the GPU test, `streampipe calibrate --inline-copies`
# twice (six pipeline ladders and the bare one), run 98's profile with the first calibration's
# keys added (h100-inline.toml), then sweeps a1 (that profile), b1 (run 98's, no inline path) and
# a2 with the same binary. Part 2: b2, a3, b3, then every GPU test. As run 114, whose single
# call-by-call ladder (8.35 GB/s) overshot call by call.
# `bash docs/evidence/run116/run.sh 1`, then `... run.sh 2` (part 2 reads part 1's profile from
# docs/evidence/run116/h100-inline.toml once committed, else /tmp/run116-1).
part=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run116-$part && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
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
    timeout 90 .device/bin/streampipe calibrate --inline-copies --output=$R/h100-$k.toml > $R/calibrate-$k.txt 2>&1; echo "calibrate $k rc=$? ${SECONDS}s"
    grep -A1 "^  inline" $R/calibrate-$k.txt
  done
  P=$R/h100-inline.toml
  { sed -n '1,/^\[d2h\]/p' docs/evidence/run98/h100.toml | sed '$d'; grep -B1 -E "^inline_(max_bytes|ms_per_byte)" $R/h100-1.toml; echo; sed -n '/^\[d2h\]/,$p' docs/evidence/run98/h100.toml; } > $P
  grep inline $P
  sweep a1; sweep b1; sweep a2
else
  P=docs/evidence/run116/h100-inline.toml; [ -f $P ] || P=/tmp/run116-1/h100-inline.toml
  sweep b2; sweep a3; sweep b3
  timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt; rm -f $R/gpu-tests/*.xml
fi
gzip $R/*.csv $R/*.log; tar -C /tmp -czf $OUT/run116-$part.tgz run116-$part
