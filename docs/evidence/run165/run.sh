# Run 165 (session 29's final code, 85a9e30; run 163's bundle): issues 3 and 7's evidence on the
# current code, last measured in runs 88 and 23: `streampipe calibrate` three times (G, duplex,
# g against the anchors), the 1 M-frame soak, then the sanitizers (each tool's canary caught, the
# GPU tests under each tool), through scripts/gpu-evidence.
#   bash docs/evidence/run165/run.sh     # with .device.txz carried; logs under $OUT/run165
set -u
SECONDS=0
[ -d .device ] || tar -xJf .device.txz
R=$OUT/run165 && mkdir -p $R && nvidia-smi > $R/gpu.txt
for k in 1 2 3; do
  scripts/gpu-evidence calibrate $R/calibrate-$k .device > $R/calibrate-$k.txt 2>&1
  echo "calibrate $k rc=$? ${SECONDS}s"; grep -iE "G |duplex|g |latency|GB/s" $R/calibrate-$k.txt | head -12
done
scripts/gpu-evidence soak $R/soak .device > $R/soak.txt 2>&1
echo "soak rc=$? ${SECONDS}s"; tail -n 16 $R/soak.txt
timeout 420 scripts/gpu-evidence sanitizers $R/sanitizers .device > $R/sanitizers.txt 2>&1
echo "sanitizers rc=$? ${SECONDS}s"; cat $R/sanitizers.txt
gzip $R/sanitizers/*.log 2>/dev/null
