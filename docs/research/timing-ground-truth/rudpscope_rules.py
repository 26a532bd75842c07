#!/usr/bin/env python3
"""rudpscope's silence rules (analysis/analyzers/timing_analyzer.h), applied
independently to tshark's timestamps of one UDP flow, to cross-check
`rudpscope-cli analyze` on a corpus capture.

usage: tshark -r CAP -Y 'udp.port==P' -T fields -e frame.time_epoch -e ip.src > flow.tsv
       rudpscope_rules.py flow.tsv CLIENT_IP
Prints the freezes (start relative to the flow's first packet, length) and
the one-sided silences per direction. Gap medians follow the analyzer's
0.5 ms histogram (the upper edge of the median's bin).
"""
import math
import sys
from decimal import Decimal

THR = 200.0  # ms, the default stall threshold
TICKS = 5


def median_binned(gaps):
    g = sorted(gaps)
    med = g[max(1, math.ceil(0.5 * len(g))) - 1]
    return min(g[-1], math.ceil(med / 0.5 - 1e-9) * 0.5)


def main():
    rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n") if l]
    t = [(Decimal(a), 0 if s == sys.argv[2] else 1) for a, s in rows]
    t0 = t[0][0]
    ms = lambda a, b: float((b - a) * 1000)
    idx = [[i for i, (_, d) in enumerate(t) if d == k] for k in (0, 1)]
    med = [median_binned([ms(t[a][0], t[b][0]) for a, b in zip(ix, ix[1:])]) for ix in idx]
    freeze_thr = max(THR, TICKS * min(med))
    freezes = [(t[i - 1][0], t[i][0]) for i in range(1, len(t)) if ms(t[i - 1][0], t[i][0]) > freeze_thr]
    print(f"freezes: {len(freezes)} (threshold {freeze_thr} ms)")
    for a, b in freezes:
        print(f"  {float(a - t0):.3f} s for {ms(a, b):.3f} ms")
    for d in (0, 1):
        thr = max(THR, TICKS * med[d])
        ix = idx[d]
        spans = [(t[a][0], t[b][0]) for a, b in zip(ix, ix[1:])] + [(t[ix[-1]][0], t[-1][0])]
        quiet = [s for s in spans if ms(*s) > thr and not any(s[0] <= x and y <= s[1] for x, y in freezes)]
        print(f"direction {'client->server' if d == 0 else 'server->client'}: median gap {med[d]} ms, "
              f"{len(quiet)} one-sided silences over {thr} ms")


if __name__ == "__main__":
    main()
