#!/usr/bin/env python3
"""clusters.py NAME: group each direction's silences into episodes (next silence starts
<= 1.0 s after the previous one ended); print episode start/end, count, min/max length,
verdict counts, and other-direction packets inside."""
import sys, json
from collections import Counter
R=json.load(open(f'/tmp/gt37/out/{sys.argv[1]}.json'))
for fl in R['flows']:
    for lab,r in fl['dirs'].items():
        eps=[]
        for s in r['silences']:
            if eps and s['start_s']-eps[-1][-1]['end_s']<=1.0: eps[-1].append(s)
            else: eps.append([s])
        print(lab)
        for e in eps:
            L=[s['len_ms'] for s in e]; v=Counter(s['verdict'] for s in e)
            print(f"  {e[0]['start_s']:.3f}-{e[-1]['end_s']:.3f} s: n={len(e)} len {min(L):.3f}..{max(L):.3f} ms, other pkts inside {sum(s['other_pkts_inside'] for s in e)}, {dict(v)}")
