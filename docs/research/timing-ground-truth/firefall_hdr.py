#!/usr/bin/env python3
"""Firefall-specific check of a hypothesised header: [0:4] socket id, [4:6] BE =
channel(2 bits) | flags(3 bits) | length(11 bits) where length = payload_len - 4,
[6:8] BE = per-channel sequence number (channels 1..3)."""
import sys
from collections import Counter, defaultdict
rows=[l.rstrip('\n').split('\t') for l in open('/tmp/gt37/tsv/firefall.udp.tsv')]
for src in ('192.168.1.111','52.16.251.62'):
    P=[bytes.fromhex(r[9]) for r in rows if r[2]==src and r[7] in ('59238','58637') and r[6] in ('59238','58637')]
    sock=Counter(p[:4].hex() for p in P)
    lenok=sum(1 for p in P if len(p)>=6 and (int.from_bytes(p[4:6],'big')&0x7ff)==len(p)-4)
    ch=Counter(p[4]>>6 for p in P); fl=Counter((p[4]>>3)&7 for p in P)
    print(f'== {src}: n={len(P)} socket ids={dict(sock)} len-field==len-4: {lenok}/{len(P)}')
    print('   channel counts', dict(sorted(ch.items())), 'flag(3bit) counts', dict(sorted(fl.items())))
    byc=defaultdict(list)
    for p in P: byc[p[4]>>6].append(p)
    for c,L in sorted(byc.items()):
        v=[int.from_bytes(p[6:8],'big') for p in L if len(p)>=8]
        pr=list(zip(v,v[1:]))
        if len(pr)<2: continue
        ex=sum(1 for a,b in pr if (b-a)%65536==1)/len(pr); lo=sum(1 for a,b in pr if 1<=(b-a)%65536<=3)/len(pr)
        same=sum(1 for a,b in pr if a==b)/len(pr)
        back=sum(1 for a,b in pr if (b-a)%65536>=32768)/len(pr)
        # also excluding resend flag packets (hypothesis: bit 0x20 of byte4 = resend)
        v2=[int.from_bytes(p[6:8],'big') for p in L if len(p)>=8 and not (p[4]&0x20)]
        pr2=list(zip(v2,v2[1:])); ex2=(sum(1 for a,b in pr2 if (b-a)%65536==1)/len(pr2)) if len(pr2)>1 else None
        print(f'   ch{c}: n={len(L)} seq@6 BE16 exact={ex:.4f} loose(1..3)={lo:.4f} same={same:.4f} backwards={back:.4f} first={v[0]} last={v[-1]} | w/o byte4&0x20: n={len(v2)} exact={ex2}')

# diff distributions per channel, and channel-sets combined
print('\n-- diff histograms (top 6) of BE16@6 between consecutive packets of the same channel set')
for src in ('192.168.1.111','52.16.251.62'):
    P=[bytes.fromhex(r[9]) for r in rows if r[2]==src and r[7] in ('59238','58637') and r[6] in ('59238','58637')]
    for chs in ((1,),(2,),(3,),(1,2),(2,3),(1,2,3)):
        v=[int.from_bytes(p[6:8],'big') for p in P if (p[4]>>6) in chs and len(p)>=8]
        d=Counter((b-a)%65536 for a,b in zip(v,v[1:]))
        n=sum(d.values())
        print(f'   {src} ch{chs}: pairs={n} top={[(k,round(c/n,4)) for k,c in d.most_common(6)]}')
