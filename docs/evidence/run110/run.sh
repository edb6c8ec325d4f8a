# Run 110 (session 19): the inline path of copies in (8e86967). Part 1: every GPU test,
# `streampipe calibrate` (the new ladder: h2d.inline_*), run 98's profile with those two keys
# added (h100-inline.toml), then sweeps a1 (that profile) and b1 (run 98's, no inline path) with
# the same binary. Part 2: a2, b2, a3, b3. The A/B isolates the inline term on one lease.
# `bash docs/evidence/run110/run.sh 1`, then `... run.sh 2` (part 2 reads part 1's profile from
# docs/evidence/run110/h100-inline.toml once committed, else /tmp/run110-1).
part=${1:-1}
cd .device && . ./env.sh && cd .. && R=/tmp/run110-$part && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
sweep() {
  case $1 in a*) prof=$P;; b*) prof=docs/evidence/run98/h100.toml;; esac
  timeout 150 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=$prof \
    --output=$R/sweep-$1.csv --summary=$R/summary-$1.md 2> $R/sweep-$1.log; echo "sweep $1 ($prof) rc=$? ${SECONDS}s"
  grep -E "calibrated median" $R/sweep-$1.log
}
if [ "$part" = 1 ]; then
  timeout 120 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
  rm -rf $R/gpu-tests
  timeout 150 .device/bin/streampipe calibrate --output=$R/h100.toml > $R/calibrate.txt 2>&1; echo "calibrate rc=$? ${SECONDS}s"
  grep -A1 "^  inline" $R/calibrate.txt
  P=$R/h100-inline.toml
  { sed -n '1,/^\[d2h\]/p' docs/evidence/run98/h100.toml | sed '$d'; grep -B1 -E "^inline_(max_bytes|ms_per_byte)" $R/h100.toml; echo; sed -n '/^\[d2h\]/,$p' docs/evidence/run98/h100.toml; } > $P
  grep inline $P
  sweep a1; sweep b1
else
  P=docs/evidence/run110/h100-inline.toml; [ -f $P ] || P=/tmp/run110-1/h100-inline.toml
  sweep a2; sweep b2; sweep a3; sweep b3
fi
gzip $R/*.csv; tar -C /tmp -czf $OUT/run110-$part.tgz run110-$part
