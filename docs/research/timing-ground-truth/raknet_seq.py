#!/usr/bin/env python3
"""RakNet check (small flows, indicative only): for packets whose byte0 has the 0x80 'valid
datagram' bit, print byte0 and the 24-bit LE datagram number at bytes 1..3, per direction."""
import sys
from collections import defaultdict
for name in sys.argv[1:]:
    d=defaultdict(list)
    for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv'):
        f=l.rstrip('\n').split('\t'); p=bytes.fromhex(f[9])
        d[(f[2]+':'+f[6],f[4]+':'+f[7])].append(p)
    for k,P in d.items():
        if len(P)<5: continue
        seq=[(hex(p[0]),int.from_bytes(p[1:4],'little')) for p in P if p and p[0]&0x80]
        print(name,k,len(P),'datagrams:',seq)
