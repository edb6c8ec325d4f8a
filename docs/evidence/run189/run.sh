# Run 189 (session 33): the current code (e6d036e's library: the lower probe of runs 187-188 not
# kept) on symmetric-grid sweeps, every kept adaptive batch traced with the wall clock and each
# measurement's parts, beside the GPU's clocks, power and throttle reasons (nvidia-smi every
# 200 ms) and the host's CPU counters (/proc/stat every 0.5 s). Observational, written before the
# run; the questions it is to answer (docs/evidence/run189/README.md gives the answers):
#   1. In runs 187-188, 72 of the 129 points over 10 % were below every n the adaptive run had
#      measured, over-predicted, in configurations whose last non-streamed measurement (the
#      anchor at n = 1) read over 1.1x the rounds at n = 1 after a re-measurement. Is such a
#      measurement slow in its parts (h2d, kernel, d2h summing over 1.1x the rounds' parts) or
#      between them (its parts as the rounds', its time longer)?
#   2. Are the slow stretches the GPU's own clocks (SM clock under its loaded 1980 MHz, a
#      throttle reason other than idle) or not?
#   3. Does the host lose CPU time (steal) in them?
#   bash docs/evidence/run189/run.sh
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
. .device/env.sh
R=$OUT/run189 && mkdir -p $R && nvidia-smi > $R/gpu.txt
q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active,utilization.gpu
nvidia-smi --query-gpu=$q --format=csv -lms 200 > $R/smi.csv 2>&1 &
smi=$!
( while :; do echo "$(date +%s.%N) $(head -1 /proc/stat)"; sleep 0.5; done ) > $R/cpu.txt &
cpu=$!
P=docs/evidence/run117/h100.toml
i=0
while [ $SECONDS -lt 300 ] && [ $i -lt 8 ]; do
  i=$((i + 1))
  timeout $((400 - SECONDS)) streampipe sweep --grid=symmetric --issue=streams,graph --profile=$P \
    --output=$R/sweep-$i.csv --summary=$R/summary-$i.md --adaptive-trace=$R/trace-$i.csv \
    2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E "calibrated median|the measurement itself" $R/sweep-$i.log
done
kill $smi $cpu
head -3 $R/smi.csv; head -2 $R/trace-1.csv; grep -m2 "adaptive reference" $R/sweep-1.log
gzip $R/*.csv $R/*.log $R/cpu.txt
tar -C $OUT -czf $OUT/run189.tgz run189 && rm -rf $R
