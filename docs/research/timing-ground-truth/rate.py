#!/usr/bin/env python3
"""rate.py NAME BIN_S: packets per direction per time bin (t_rel)."""
import sys
from decimal import Decimal
from collections import Counter
name,b=sys.argv[1],float(sys.argv[2])
base=Decimal(open(f'/tmp/gt37/tsv/{name}.first.tsv').read().split()[0])
c=Counter()
for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv'):
    f=l.split('\t'); c[(int(float(Decimal(f[1])-base)//b), f[2])]+=1
srcs=sorted({k[1] for k in c})
print('bin_start', *srcs)
for i in range(max(k[0] for k in c)+1): print(f'{i*b:7.1f}', *[c[(i,s)] for s in srcs])
