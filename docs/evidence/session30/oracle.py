# The median of the other sweeps' measurements of one lease as a prediction (the oracle), against
# the calibrated model's, per sweep-mode, over the symmetric add-scalar grid and the whole grid.
#   python3 docs/evidence/session30/oracle.py COLUMN SWEEP.csv.gz...   (COLUMN: the model's prediction)
import csv,gzip,sys,statistics as st,glob
from collections import defaultdict
KEY=("workload","grid","in_bytes","out_bytes","intensity","order","streams","issue")
def rd(p): return {tuple(r[k] for k in KEY):r for r in csv.DictReader(gzip.open(p,'rt'))}
col=sys.argv[1]; files=sys.argv[2:]
S=[rd(f) for f in files]
for i,A in enumerate(S):
  for mode in ('graph','streams'):
    for grid in ('symmetric','all'):
      pts=[k for k in A if k[7]==mode and (grid=='all' or k[1]==grid)]
      eo=[];ep=[]
      for k in pts:
        others=[float(B[k]['median_ms']) for j,B in enumerate(S) if j!=i and k in B]
        m=float(A[k]['median_ms'])
        eo.append(abs(st.median(others)/m-1)); ep.append(abs(float(A[k][col])/m-1))
      print(f"{files[i].split('/')[-2]}/{files[i].split('/')[-1][6:-7]:6s} {mode:7s} {grid:9s} oracle max {max(eo)*100:5.1f} ({sum(e>0.1 for e in eo):2d})  calibrated max {max(ep)*100:5.1f} ({sum(e>0.1 for e in ep):2d})")
