# Run 259 (session 46): session 46's code (95011d1) on one H200: every GPU suite with the new
# tests of a profile of another card, that refusal shown on the CLI against the code before it
# (run 257's bundle, 9b3c575's library, carried as .device-old.txz), and two more symmetric
# sweeps with this card's profile.
# Criterion, written before the run:
#  1. every GPU suite passes: adaptive 10, cli_gpu 6, core 262, resources 7, fault 3,
#     histogram 6, pipeline 40 and the two-device test skipped (one GPU), video 124;
#  2. `sweep --grid=quick --profile=<a copy of run 117's H100 profile>` exits 78 naming both
#     cards and leaves the copy byte for byte (sha256), writing no CSV; `histogram` with a
#     config whose pipeline.profile is that copy exits 78 and leaves it so too; the code before
#     (old bundle) exits 0 on the same sweep and has written this card's profile over the copy;
#  3. each sweep exits 0 and its trace replays to its own prediction within 0.1 % (criteria.sh,
#     afterwards on the CPU); goal figures reported, not judged.
#   bash docs/evidence/run259/run.sh   (on the GPU machine, .device.txz and .device-old.txz carried)
set -u
SECONDS=0
rm -rf .device .device-old && tar -xJf .device.txz
mkdir -p .old && tar -C .old -xJf .device-old.txz && mv .old/.device .device-old && rmdir .old
. .device/env.sh
R=$OUT/run259 && mkdir -p $R && nvidia-smi > $R/gpu.txt
.device/run-gpu-tests $R/tests > $R/gpu-tests.txt 2>&1
echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
grep -A14 "Failure" $R/tests/*.log | head -30
H=$R/h100-copy.toml && cp docs/evidence/run117/h100.toml $H && sha256sum $H | tee $R/sha-before.txt
timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$H --output=$R/quick.csv > $R/cli-new.txt 2>&1
echo "new: sweep with the H100's profile rc=$?"; cat $R/cli-new.txt | cut -c1-400
printf '[pipeline]\nprofile = "%s"\n' "$H" > $R/h100-profile-config.toml
.device/bin/streampipe histogram --synthetic=section44 --frames=64 --config=$R/h100-profile-config.toml \
  --output=$R/h.csv > $R/cli-new-histogram.txt 2>&1
echo "new: histogram with pipeline.profile the H100's rc=$?"; cut -c1-400 $R/cli-new-histogram.txt
sha256sum $H | tee $R/sha-after-new.txt; ls $R/quick.csv* $R/h.csv* 2>&1 | head -3
(export LD_LIBRARY_PATH=$PWD/.device-old/lib:${LD_LIBRARY_PATH:-}
 timeout 120 .device-old/bin/streampipe sweep --grid=quick --profile=$H --output=$R/quick-old.csv > $R/cli-old.txt 2>&1
 echo "old: sweep with the H100's profile rc=$?")
sha256sum $H | tee $R/sha-after-old.txt; grep -m1 '^name' $H
for i in 1 2; do
  timeout 110 .device/bin/streampipe sweep --config=bench/sweeps/symmetric.toml \
    --profile=docs/evidence/run257/h200-1.toml --output=$R/sweep-$i.csv --summary=$R/summary-$i.md \
    --adaptive-trace=$R/trace-$i.csv 2> $R/sweep-$i.log
  echo "sweep $i rc=$? ${SECONDS}s"
  grep -E '^streampipe sweep: (graph|streams): (calibrated|the measurement)' $R/sweep-$i.log | cut -c1-120
done
gzip $R/*.csv $R/*.log 2>/dev/null
tar -C $OUT -czf $OUT/run259.tgz run259 && rm -rf $R
