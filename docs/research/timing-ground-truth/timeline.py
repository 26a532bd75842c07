#!/usr/bin/env python3
"""Print packets of one flow in a time window: timeline.py NAME T0 T1 [SRCFILTER]"""
import sys
from decimal import Decimal
name,t0,t1=sys.argv[1],float(sys.argv[2]),float(sys.argv[3])
base=Decimal(open(f'/tmp/gt37/tsv/{name}.first.tsv').read().split()[0])
prev={}
for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv'):
    f=l.rstrip('\n').split('\t'); t=float(Decimal(f[1])-base)
    src=f[2] or f[3]
    if t0<=t<=t1:
        g=(t-prev[src])*1000 if src in prev else float('nan')
        print(f'{t:10.4f} {src:>15}:{f[6]:<5} gap={g:8.2f}ms len={len(f[9])//2:4d} {f[9][:24]}')
    prev[src]=t
