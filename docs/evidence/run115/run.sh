# Run 115 (session 20): the inline ladder in the pipeline's shape at n = 8, 32, 64 and 128,
# call by call and as graphs, twice (bench/inline_ladder): does the host's cost per byte of an
# inline copy in depend on n? Then every GPU test (the new CalibrationMeasuresTheInlinePath...).
# `bash docs/evidence/run115/run.sh`
cd .device && . ./env.sh && cd .. && R=/tmp/run115 && rm -rf $R && mkdir -p $R && nvidia-smi > $R/gpu.txt
SECONDS=0
timeout 200 .device/bin/inline_ladder --streams=8,32,64,128 --repeat=3 > $R/inline-ladder.txt 2>&1; echo "inline_ladder rc=$? ${SECONDS}s"; cat $R/inline-ladder.txt
timeout 150 .device/run-gpu-tests $R/gpu-tests > $R/gpu-tests.txt 2>&1; echo "gpu tests rc=$? ${SECONDS}s"; cat $R/gpu-tests.txt
rm -f $R/gpu-tests/*.xml; tar -C /tmp -czf $OUT/run115.tgz run115
