#!/usr/bin/env python3
"""Drift re-derivations in traced adaptive runs (streampipe sweep --adaptive-trace): for each
re-measurement after at least six streamed batches at one n, the last three batches at that n
over the median of its earlier ones (up to 20); "within" where their median is in 0.80-1.25.

    python3 docs/evidence/run121/drift_kinds.py TRACE.csv.gz [...]
"""
import csv,gzip,sys,statistics as st
from collections import defaultdict
small = big = 0
for path in sys.argv[1:]:
    runs=defaultdict(list)
    for r in csv.DictReader(gzip.open(path,'rt')):
        runs[(r['workload'],r['in_bytes'],r['intensity'],r['order'],r['issue'],r['adaptive_run'])].append(r)
    for k,rs in runs.items():
        prev=[]
        seen_other=False
        for r in rs:
            if r['kind']=='measure':
                if seen_other:
                    # before the re-measure: the streamed batches at the same n
                    n=prev[-1]['streams']
                    same=[float(x['elapsed_ms']) for x in prev if x['streams']==n and x['kind']=='streamed']
                    if len(same)>=6:
                        lvl=st.median(same[:-3][-20:]); last=[v/lvl for v in same[-3:]]
                        m=sorted(last)[1]
                        tag="within" if 0.8<=m<=1.25 else "outside"
                        if 0.8<=m<=1.25: small+=1
                        else: big+=1
                        print(path.split('/')[-1],k[0],k[1],k[4],'n',n,'last3/level',' '.join(f'{v:.2f}' for v in last),tag)
                    seen_other=False; prev=[]
            else:
                seen_other = r['kind']!='warmup'
                prev.append(r)
print('within 0.80-1.25x', small, 'outside', big)
