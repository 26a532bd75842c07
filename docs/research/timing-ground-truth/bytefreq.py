#!/usr/bin/env python3
"""bytefreq.py NAME SRC_IP: top byte values in payload[8:] of one source, and entropy of
payload[8:] after dropping 0x00 bytes (to see whether zero padding masks random data)."""
import sys, math
from collections import Counter
name,src=sys.argv[1],sys.argv[2]
b=b''.join(bytes.fromhex(l.rstrip('\n').split('\t')[9])[8:] for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv') if l.split('\t')[2]==src)
c=Counter(b); n=len(b)
print(name,src,'bytes',n,'top',[(hex(k),round(v/n,4)) for k,v in c.most_common(5)])
nz=[x for x in b if x!=0]; c2=Counter(nz); m=len(nz)
print('  H without 0x00: %.4f'%(-sum(v/m*math.log2(v/m) for v in c2.values())))
