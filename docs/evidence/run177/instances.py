# Run 177: per configuration and n, the four pipelines' medians; are a pipeline's offsets in the
# first half of the rounds repeated in the second (a pipeline of its own speed) or not?
#   cd docs/evidence/run177 && python3 instances.py shared.csv.gz host.csv.gz q32.csv.gz
import csv,gzip,sys,collections,statistics as st
for f in sys.argv[1:]:
    D=collections.defaultdict(dict)
    for r in csv.DictReader(gzip.open(f,'rt')):
        D[(r['iters'],r['order'],r['issue'],int(r['streams']))][int(r['instance'])]=(float(r['median_ms']),float(r['first_half_ms']),float(r['second_half_ms']))
    xs=[];ys=[];spread=[];big=[]
    for k,v in D.items():
        if len(v)<2: continue
        m0=st.mean(x[1] for x in v.values()); m1=st.mean(x[2] for x in v.values())
        for i,(m,a,b) in v.items():
            xs.append(a/m0-1); ys.append(b/m1-1)
        meds=[x[0] for x in v.values()]
        sp=max(meds)/min(meds)-1; spread.append(sp)
        if sp>0.08: big.append((k,' '.join('%.3f/%.3f'%(a/m0,b/m1) for m,a,b in v.values())))
    mx=st.mean(xs);my=st.mean(ys)
    c=sum((a-mx)*(b-my) for a,b in zip(xs,ys))/len(xs)/(st.pstdev(xs)*st.pstdev(ys))
    q=sorted(spread)
    print(f, 'configs-n',len(spread),'corr of instance offsets first vs second half %.3f'%c, 'spread median %.2f%% p90 %.2f%% max %.2f%%, over 5%%: %d, over 10%%: %d'%(100*q[len(q)//2],100*q[int(.9*len(q))],100*q[-1],sum(s>0.05 for s in q),sum(s>0.1 for s in q)))
    # same-sign persistence for offsets > 4%
    per=[(a,b) for a,b in zip(xs,ys) if abs(a)>0.04]
    print('   instance offsets >4%% in first half: %d; same side >2%% in second: %d; within 2%%: %d'%(len(per),sum(1 for a,b in per if a*b>0 and abs(b)>0.02),sum(1 for a,b in per if abs(b)<=0.02)))
    # were the halves independent: each offset's chance of a second-half offset over 2 % on its side
    pos=sum(y>0.02 for y in ys)/len(ys); neg=sum(y<-0.02 for y in ys)/len(ys)
    print('   same side by chance (halves independent): %.1f'%sum(pos if a>0 else neg for a,b in per))
    for k,s in big: print('   ',k,s)
