# Run 246 (session 44): run 245's bundle on one H100 (nvidia-h100-x1): every GPU suite and the
# pipeline against the hand-written loop once.
# Criterion, written before the run: every GPU suite passes (as run 245's, pipeline 39 and the
# two-device test skipped: one GPU); the pipeline within 2 % of the hand loop at every point.
#   RUN=run246 bash docs/evidence/run245/run.sh   (on the GPU machine, .device.txz carried)
