# Run 92 (session 15): the final code (6855288) on run 91's lease (quiet in its quick sweep):
# two full sweeps with run 91's profile, the adaptive-run check on (the default).
cd .device && . ./env.sh && cd .. && R=$OUT/run92 && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
for k in 1 2; do
  timeout 170 .device/bin/streampipe sweep --grid=all --issue=streams,graph --profile=docs/evidence/run91/h100.toml --output=$R/sweep-$k.csv --summary=$R/summary-$k.md 2> $R/sweep-$k.log; echo "sweep $k rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself|Adaptive runs" $R/sweep-$k.log
done
cd $OUT && tar czf run92.tgz run92 && rm -rf run92
