#!/usr/bin/env python3
"""Timestamp-resolution check: tsquant.py NAME. For all UDP packets (any direction),
distribution of consecutive-packet gaps: fraction exactly 0, and fraction within +-20 us of a
multiple of 1 ms (excluding 0); plus most common sub-ms residues of epoch (in us)."""
import sys
from decimal import Decimal
from collections import Counter
name=sys.argv[1]
ts=[Decimal(l.split('\t')[1]) for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv')]
g=[ts[i+1]-ts[i] for i in range(len(ts)-1)]
us=[int(x*1000000) for x in g]
z=sum(1 for u in us if u==0)
nz=[u for u in us if u>0]
near=sum(1 for u in nz if min(u%1000,1000-u%1000)<=20)
print(f'{name}: gaps={len(us)} exactly0={z} ({z/len(us):.3f}); nonzero within 20us of k*1ms: {near}/{len(nz)} ({near/len(nz):.3f})')
print(' top sub-ms residues of gaps (us):',Counter(u%1000 for u in nz).most_common(8))
print(' smallest nonzero gaps (us):',sorted(set(nz))[:10])
