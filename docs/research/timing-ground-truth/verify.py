#!/usr/bin/env python3
"""Checks for report statements: client silence counts before/after 17.5 s; size of the
server burst right after each server-only silence after 17.5 s (packets within 10 ms of the
first packet after the gap)."""
import json
from decimal import Decimal
R=json.load(open('/tmp/gt37/out/firefall.json')); fl=R['flows'][0]
for lab,r in fl['dirs'].items():
    S=r['silences']; a=[s for s in S if s['start_s']>=17.5]
    print(lab,'total',len(S),'start>=17.5:',len(a),'only-this-side>=17.5:',sum(s['verdict']=='only this side quiet' for s in a),
          'in [17.5,26.5]:',sum(1 for s in a if s['start_s']<=26.5),
          'len 450-550ms among >=17.5:',sum(1 for s in a if 450<=s['len_ms']<=550))
base=Decimal(open('/tmp/gt37/tsv/firefall.first.tsv').read().split()[0])
ts=[float(Decimal(l.split('\t')[1])-base) for l in open('/tmp/gt37/tsv/firefall.udp.tsv') if l.split('\t')[2]=='52.16.251.62' and l.split('\t')[6]=='59238']
srv=fl['dirs']['52.16.251.62:59238 -> 192.168.1.111:58637']['silences']
sizes=[]
for s in srv:
    if s['start_s']<17.5: continue
    e=s['end_s']; i=min(range(len(ts)),key=lambda k:abs(ts[k]-e))
    sizes.append(sum(1 for t in ts[i:i+60] if t-ts[i]<=0.010))
print('server post-gap burst sizes (pkts within 10 ms):',sizes)
