#!/usr/bin/env python3
"""Burst view: bursts.py NAME SRC_IP. Packets of one direction grouped into bursts
(new burst when gap > 3 ms); prints burst-size distribution and the mode of
burst-start intervals (1 ms bins), plus the 1 ms-bin histogram of raw gaps."""
import sys
from decimal import Decimal
from collections import Counter
name,src=sys.argv[1],sys.argv[2]
ts=[float(Decimal(l.split('\t')[1])) for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv') if l.split('\t')[2]==src or l.split('\t')[3]==src]
g=[ts[i+1]-ts[i] for i in range(len(ts)-1)]
print(f'{name} {src}: n={len(ts)}; raw gap 1ms bins top12:',Counter(int(x*1000) for x in g).most_common(12))
starts=[ts[0]];sizes=[1]
for i,x in enumerate(g):
    if x>0.003: starts.append(ts[i+1]);sizes.append(1)
    else: sizes[-1]+=1
bi=[starts[i+1]-starts[i] for i in range(len(starts)-1)]
print(f'  bursts={len(starts)} size dist top8:',Counter(sizes).most_common(8),' mean size=%.3f'%(sum(sizes)/len(sizes)))
print('  burst-start interval 1ms bins top10:',Counter(int(x*1000) for x in bi).most_common(10))
bi_s=sorted(bi); print('  burst interval median=%.3f ms'%(bi_s[len(bi_s)//2]*1000))
