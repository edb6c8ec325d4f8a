# Run 261 (session 46): run 260's criterion 3, second part, again with a stopped sweep's file
# that holds this version's header (run 260's held "x", so the header check refused it first,
# exit 65, before the profile was read). Same bundle (3445dc7's), one H200.
# Criterion, written before the run: with --resume and a profile of this card from another
# driver, the sweep exits 78 and its message ends "(with this card's profile, or a path where
# none is yet)"; the stale profile and the stopped file are left byte for byte.
#   bash docs/evidence/run261/run.sh   (on the GPU machine, .device.txz carried)
set -u
rm -rf .device && tar -xJf .device.txz
. .device/env.sh
R=$OUT/run261 && mkdir -p $R && nvidia-smi > $R/gpu.txt
timeout 60 .device/bin/streampipe calibrate --quick --output=$R/this.toml > /dev/null 2>&1
echo "calibrate rc=$?"
sed 's/^driver_version = .*/driver_version = 1/' $R/this.toml > $R/stale.toml
zcat docs/evidence/run259/quick-old.csv.gz | head -1 > $R/r.csv.partial
sha256sum $R/stale.toml $R/r.csv.partial > $R/sha-before.txt
timeout 120 .device/bin/streampipe sweep --grid=quick --profile=$R/stale.toml --output=$R/r.csv \
  --resume > $R/cli-resume.txt 2>&1
echo "resume with a stale profile rc=$?"; cut -c1-500 $R/cli-resume.txt
sha256sum $R/stale.toml $R/r.csv.partial > $R/sha-after.txt
cmp $R/sha-before.txt $R/sha-after.txt && echo "both unchanged"
tar -C $OUT -czf $OUT/run261.tgz run261 && rm -rf $R
