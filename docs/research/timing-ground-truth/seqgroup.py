#!/usr/bin/env python3
"""Sequence-counter scan within sub-streams. Usage: seqgroup.py NAME [MIN_PKTS]
For each direction of each flow with >= MIN packets, split packets by a key taken from the
payload: top-2 bits / top-4 bits / full value of byte k (k = 0..7). For every key with >= 2
groups and every group holding >= 5% of the direction's packets (and >= 20 pairs), run the
same scan as analyze.py (offset 0..12, width 1/2/4, BE/LE) on consecutive packets *of that
group*. Prints candidates with exact > 0.9 or loose(1..3) > 0.9, best 8 per direction."""
import sys
from collections import defaultdict
name=sys.argv[1]; MIN=int(sys.argv[2]) if len(sys.argv)>2 else 200
flows=defaultdict(list)
for l in open(f'/tmp/gt37/tsv/{name}.udp.tsv'):
    f=l.rstrip('\n').split('\t')
    s=(f[2] or f[3], f[6]); d=(f[4] or f[5], f[7])
    flows[tuple(sorted([s,d]))].append((s,bytes.fromhex(f[9])))
def scan(pls):
    res=[]
    for off in range(13):
        for w in (1,2,4):
            for order in (('big','little') if w>1 else ('big',)):
                v=[int.from_bytes(p[off:off+w],order) if len(p)>=off+w else None for p in pls]
                pr=[(a,b) for a,b in zip(v,v[1:]) if a is not None and b is not None]
                if len(pr)<20: continue
                m=1<<(8*w)
                ex=sum(1 for a,b in pr if (b-a)%m==1)/len(pr); lo=sum(1 for a,b in pr if 1<=(b-a)%m<=3)/len(pr)
                if ex>0.9 or lo>0.9: res.append((off,w,order if w>1 else '-',len(pr),round(ex,4),round(lo,4)))
    return res
for key,P in flows.items():
    if len(P)<MIN: continue
    for s in key:
        pls=[p for src,p in P if src==s]
        if not pls: continue
        out=[]
        for k in range(8):
            for kn,fn in (('top2',lambda b:b>>6),('top4',lambda b:b>>4),('byte',lambda b:b)):
                g=defaultdict(list)
                for p in pls:
                    g[fn(p[k]) if len(p)>k else None].append(p)
                if len(g)<2: continue
                for gv,L in g.items():
                    if gv is None or len(L)<0.05*len(pls): continue
                    for c in scan(L):
                        out.append((f'byte{k}.{kn}={gv:#x}',len(L))+c)
        out.sort(key=lambda t:(-t[6],-t[7],-t[1]))
        print(f'{name} {s[0]}:{s[1]} (n={len(pls)}): {len(out)} grouped candidates; best:')
        for o in out[:8]: print('   key=%s groupN=%d off=%d w=%d order=%s pairs=%d exact=%.4f loose=%.4f'%o)
