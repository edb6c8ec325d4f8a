# Run 122 (session 21): what one cudaMemsetAsync, device-to-host and host-to-device copy costs
# the host to issue, by size (bench/issue_cost.cpp): the histogram's step past n = 8.
# `bash docs/evidence/run122/run.sh`
cd .device && . ./env.sh && cd .. && mkdir -p /tmp/run122 && nvidia-smi > /tmp/run122/gpu.txt
for c in 64 8 16; do echo "== --calls=$c"; .device/bin/issue_cost --calls=$c; echo rc=$?; done 2>&1 | tee /tmp/run122/issue-cost.txt
.device/bin/issue_cost --calls=64 > /tmp/run122/issue-cost-repeat.txt 2>&1; cat /tmp/run122/issue-cost-repeat.txt
tar -C /tmp -czf $OUT/run122.tgz run122
