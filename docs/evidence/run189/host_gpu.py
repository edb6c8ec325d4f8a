# Questions 2 and 3 of run 189: the GPU's SM clock, throttle reasons and power over the sweeps
# (nvidia-smi every 200 ms), the host's steal time (/proc/stat every 0.5 s), and the adaptive
# runs' settled streamed batches over 1.1x the rounds' median at their n: how many fall in a
# half-second with steal time, against all.
#   python3 docs/evidence/run189/host_gpu.py docs/evidence/run189
import csv,gzip,sys,bisect,collections,datetime
d=sys.argv[1]
smi=list(csv.reader(gzip.open(d+'/smi.csv.gz','rt'),skipinitialspace=True))[1:]
clock=collections.Counter(r[1] for r in smi); reason=collections.Counter(r[5] for r in smi)
print('nvidia-smi samples %d; SM clock %s; throttle reasons %s; power max %.0f W; temperature max %s C' % (
    len(smi), dict(clock), dict(reason), max(float(r[3].split()[0]) for r in smi), max(int(r[4]) for r in smi)))
cpu=[l.split() for l in gzip.open(d+'/cpu.txt.gz','rt')]
ts=[];steal=[]
for a,b in zip(cpu,cpu[1:]):
    va=[int(x) for x in a[2:]]; vb=[int(x) for x in b[2:]]
    ts.append(float(b[0])); steal.append(vb[7]-va[7])
print('host: %d half-seconds, %d with steal time, %d ticks in all' % (len(ts),sum(s>0 for s in steal),sum(steal)))
tot=slow=slow_st=tot_st=0
for i in range(1,8):
    rounds={}
    for r in csv.DictReader(gzip.open(f'{d}/sweep-{i}.csv.gz','rt')):
        rounds[(float(r['intensity']),r['order'],r['issue'],int(r['streams']))]=float(r['median_ms'])
    for r in csv.DictReader(gzip.open(f'{d}/trace-{i}.csv.gz','rt')):
        if r['kind']!='streamed' or r['settled']!='1': continue
        k=(float(r['intensity']),r['order'],r['issue'],int(r['streams']))
        s=float(r['elapsed_ms'])>1.1*rounds[k]
        j=bisect.bisect_left(ts,float(r['epoch_s']))
        st=j<len(ts) and steal[j]>0
        tot+=1; slow+=s; tot_st+=st; slow_st+=s and st
print('settled streamed batches %d, over 1.1x the rounds %d (%.1f %%); in a half-second with steal %d, of them over 1.1x %d (%.1f %%)' % (
    tot,slow,100*slow/tot,tot_st,slow_st,100*slow_st/max(1,tot_st)))
