#!/usr/bin/env python3
"""Ground-truth flow timing / silence / role / seq-counter analysis.

Usage: analyze.py NAME [MIN_PKTS]   (reads /tmp/gt37/tsv/NAME.udp.tsv, NAME.first.tsv)
Writes JSON to /tmp/gt37/out/NAME.json and a text summary to stdout.

Definitions (all times from tshark frame.time_epoch, parsed as exact decimals):
 * flow   = unordered pair of UDP endpoints (ip:port <-> ip:port); direction = src->dst.
 * t_rel  = epoch - epoch(first frame of the capture, any protocol).
 * gaps   = differences of consecutive arrival times within one direction (file order;
            files are in strict time order, checked).
 * mode   = most frequent 0.5 ms bin floor(gap/0.5ms); ties -> smaller bin.  T = median
            of the gaps inside the mode bin (the "dominant interval"); Hz = 1/T.
            If the mode bin is bin 0 (<0.5 ms, i.e. bursts) we also report the mode of
            gaps >= 0.5 ms (T2), which is then used as the tick for jitter/silence.
 * median/p99 = linear interpolation between closest ranks (numpy 'linear', type 7).
 * jitter (RFC 3550 6.4.1 estimator J += (|D|-J)/16) with the sender clock replaced by a
   nominal tick grid of period T:
     J_naive: D = gap - T                    (assumes one packet per tick)
     J_grid : D = gap - T*round(gap/T)      (sender transmits on some tick; deviation
                                             of the arrival from the nearest multiple)
 * silence = gap > max(200 ms, 5*T).  Start = t_rel of the last packet before the gap.
   Other direction: number of its packets strictly inside (start, end).
   Verdict: 0 other-direction packets inside -> "both quiet (freeze)"; 1-2 -> "near-freeze";
   >2 -> "only this side quiet". Top bins at 5 ms are also listed (coarse view).
   If the other direction had not sent its first packet yet (or had sent its last), the
   verdict says so instead of "freeze". other_max_quiet_overlap = longest stretch inside the
   silence with no other-direction packet (flow start/end count as boundaries).
 * flow-level quiet = gap > 200 ms in the merged packet stream of both directions.
 * seq counter: per direction, consecutive packet pairs where both payloads are long
   enough; diff = (v2 - v1) mod 2^(8w); exact = frac(diff==1), loose = frac(1<=diff<=3).
 * entropy: per packet Shannon entropy (bits/byte) of payload[8:] (packets with >8 bytes
   only); mean over packets; also the same for pseudo-random byte strings of the same lengths
   (random.Random(0); reference for small-sample bias), and the pooled
   entropy of all payload[8:] bytes of the direction concatenated.
"""
import sys, json, math, ipaddress, random
from decimal import Decimal
from collections import defaultdict, Counter

name = sys.argv[1]
MIN = int(sys.argv[2]) if len(sys.argv) > 2 else 200
base = Decimal(open(f"/tmp/gt37/tsv/{name}.first.tsv").read().split()[0])

pk = []  # (t_rel Decimal, src ep, dst ep, payload bytes, frame)
for line in open(f"/tmp/gt37/tsv/{name}.udp.tsv"):
    f = line.rstrip("\n").split("\t")
    fr, ep, s4, s6, d4, d6, sp, dp, ul, pay = f[:10]
    src = (s4 or s6, int(sp)); dst = (d4 or d6, int(dp))
    pk.append((Decimal(ep) - base, src, dst, bytes.fromhex(pay), int(fr)))
mono = all(pk[i][0] <= pk[i + 1][0] for i in range(len(pk) - 1))

def fmt_ep(e):
    ip, p = e
    return f"[{ip}]:{p}" if ":" in ip else f"{ip}:{p}"

def q(xs, p):  # numpy-style linear percentile
    xs = sorted(xs); n = len(xs)
    if n == 0: return None
    h = (n - 1) * p; lo = math.floor(h); hi = min(lo + 1, n - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (h - lo)

def ent(b):
    if not b: return 0.0
    c = Counter(b); n = len(b)
    return -sum(v / n * math.log2(v / n) for v in c.values())

# --- endpoint peer counts over the whole capture (UDP) ---
peers = defaultdict(set)
for t, s, d, pl, fr in pk:
    peers[s].add(d); peers[d].add(s)

def ipclass(ip):
    a = ipaddress.ip_address(ip)
    if a.is_loopback: return "loopback"
    if a.is_link_local: return "link-local"
    if a.is_multicast: return "multicast"
    if isinstance(a, ipaddress.IPv4Address):
        if any(a in ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")):
            return "RFC1918"
        if a in ipaddress.ip_network("100.64.0.0/10"): return "CGNAT"
    if a.is_private: return "private/reserved(non-1918)"
    return "public"

def portclass(p):
    if p < 1024: return "well-known"
    if p < 49152: return "registered"
    return "ephemeral(IANA)"

flows = defaultdict(list)
for x in pk:
    flows[tuple(sorted([x[1], x[2]]))].append(x)

def direction_stats(P):
    ts = [float(x[0]) for x in P]
    gaps = [ts[i + 1] - ts[i] for i in range(len(ts) - 1)]
    r = {"packets": len(P), "first_s": round(ts[0], 6), "last_s": round(ts[-1], 6),
         "bytes_payload": sum(len(x[3]) for x in P)}
    if not gaps: return r, ts, None
    bins = Counter(int(g / 0.0005) for g in gaps)
    top = sorted(bins.items(), key=lambda kv: (-kv[1], kv[0]))
    mb = top[0][0]
    T = q([g for g in gaps if int(g / 0.0005) == mb], 0.5)
    r["mode_bin_ms"] = [mb * 0.5, mb * 0.5 + 0.5]; r["mode_bin_count"] = top[0][1]
    r["mode_bin_frac"] = top[0][1] / len(gaps)
    r["top_bins"] = [[b * 0.5, c] for b, c in top[:5]]
    b5 = Counter(int(g / 0.005) for g in gaps)
    r["top_bins_5ms"] = [[b * 5, c] for b, c in sorted(b5.items(), key=lambda kv: (-kv[1], kv[0]))[:5]]
    r["T_ms"] = T * 1000; r["Hz"] = (1 / T) if T > 0 else None
    tick = T
    if mb == 0:
        g2 = [g for g in gaps if g >= 0.0005]
        b2 = Counter(int(g / 0.0005) for g in g2)
        mb2 = sorted(b2.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        T2 = q([g for g in g2 if int(g / 0.0005) == mb2], 0.5)
        r["mode2_bin_ms"] = [mb2 * 0.5, mb2 * 0.5 + 0.5]; r["T2_ms"] = T2 * 1000; r["Hz2"] = 1 / T2
        r["burst_frac"] = 1 - len(g2) / len(gaps)
        tick = T2
    r["tick_used_ms"] = tick * 1000
    r["median_gap_ms"] = q(gaps, 0.5) * 1000; r["p99_gap_ms"] = q(gaps, 0.99) * 1000
    r["max_gap_ms"] = max(gaps) * 1000; r["mean_gap_ms"] = sum(gaps) / len(gaps) * 1000
    jn = jg = 0.0
    for g in gaps:
        jn += (abs(g - tick) - jn) / 16
        jg += (abs(g - tick * round(g / tick)) - jg) / 16
    r["jitter_naive_ms"] = jn * 1000; r["jitter_grid_ms"] = jg * 1000
    # mean |D| (non-smoothed) for reference
    r["mean_absdev_grid_ms"] = sum(abs(g - tick * round(g / tick)) for g in gaps) / len(gaps) * 1000
    return r, ts, tick

def seqscan(P):
    out = []
    pls = [x[3] for x in P]
    for off in range(0, 13):
        for w in (1, 2, 4):
            for order in (("be", "le") if w > 1 else ("be",)):
                vals = [int.from_bytes(p[off:off + w], "big" if order == "be" else "little")
                        if len(p) >= off + w else None for p in pls]
                pairs = [(a, b) for a, b in zip(vals, vals[1:]) if a is not None and b is not None]
                if len(pairs) < 10: continue
                m = 1 << (8 * w)
                ex = sum(1 for a, b in pairs if (b - a) % m == 1) / len(pairs)
                lo = sum(1 for a, b in pairs if 1 <= (b - a) % m <= 3) / len(pairs)
                zero = sum(1 for a, b in pairs if (b - a) % m == 0) / len(pairs)
                out.append({"off": off, "w": w, "order": order if w > 1 else "-", "pairs": len(pairs),
                            "exact": ex, "loose": lo, "same": zero})
    return out

rng = random.Random(0)
def entropy_stats(P):
    ls = [x[3][8:] for x in P if len(x[3]) > 8]
    if not ls: return None
    hs = [ent(b) for b in ls]
    ref = [ent(bytes(rng.getrandbits(8) for _ in range(len(b)))) for b in ls]
    pooled = ent(b"".join(ls))
    return {"n": len(ls), "mean_H": sum(hs) / len(hs), "mean_H_random_same_len": sum(ref) / len(ref),
            "pooled_H": pooled, "mean_len_after8": sum(len(b) for b in ls) / len(ls)}

result = {"name": name, "udp_datagrams": len(pk), "strict_time_order": mono, "flows": []}
allflows = sorted(flows.items(), key=lambda kv: -len(kv[1]))
result["largest_flows"] = [[fmt_ep(k[0]), fmt_ep(k[1]), len(v)] for k, v in allflows[:5]]
for key, P in allflows:
    if len(P) < MIN: continue
    fl = {"a": fmt_ep(key[0]), "b": fmt_ep(key[1]), "packets": len(P), "dirs": {}}
    span = (float(P[0][0]), float(P[-1][0]))
    D = {}
    for s, d in ((key[0], key[1]), (key[1], key[0])):
        DP = [x for x in P if x[1] == s]
        if not DP: continue
        D[(s, d)] = DP
    info = {}
    for (s, d), DP in D.items():
        r, ts, tick = direction_stats(DP)
        info[(s, d)] = (r, ts, tick)
    for (s, d), (r, ts, tick) in info.items():
        lab = f"{fmt_ep(s)} -> {fmt_ep(d)}"
        other = info.get((d, s))
        ots = other[1] if other else []
        sil = []
        if tick:
            thr = max(0.2, 5 * tick); r["silence_threshold_ms"] = thr * 1000
            for i in range(len(ts) - 1):
                g = ts[i + 1] - ts[i]
                if g > thr:
                    a, b = ts[i], ts[i + 1]
                    inside = [t for t in ots if a < t < b]
                    # longest gap of the other direction overlapping (a,b)
                    og = 0.0
                    # other side's quiet stretches, counting flow start/end as boundaries
                    ob_list = [span[0]] + list(ots) + [span[1]]
                    for j in range(len(ob_list) - 1):
                        oa, ob = ob_list[j], ob_list[j + 1]
                        if ob > a and oa < b:
                            og = max(og, min(ob, b) - max(oa, a))
                    sil.append({"start_s": round(a, 3), "end_s": round(b, 3), "len_ms": round(g * 1000, 3),
                                "other_pkts_inside": len(inside),
                                "other_not_started": bool(ots) and b <= ots[0],
                                "other_ended": bool(ots) and a >= ots[-1],
                                "verdict": ("other side not yet started" if ots and b <= ots[0] else
                                            "other side already ended" if ots and a >= ots[-1] else
                                            "both quiet (freeze)") if not inside else
                                    ("near-freeze (other side <=2 pkts)" if len(inside) <= 2 else "only this side quiet"),
                                "other_max_quiet_overlap_ms": round(og * 1000, 3)})
            # head/tail relative to the flow span
            r["head_silence_ms"] = round((ts[0] - span[0]) * 1000, 3)
            r["tail_silence_ms"] = round((span[1] - ts[-1]) * 1000, 3)
        r["silences"] = sil
        DP = D[(s, d)]
        r["seq"] = seqscan(DP)
        r["entropy"] = entropy_stats(DP)
        pl = [len(x[3]) for x in DP]
        r["payload_len"] = {"min": min(pl), "median": q(pl, 0.5), "max": max(pl)}
        r["first8_examples"] = [x[3][:8].hex() for x in DP[:3]] + [x[3][:8].hex() for x in DP[len(DP) // 2: len(DP) // 2 + 2]]
        fl["dirs"][lab] = r
    # flow-level freezes: gaps in the merged (both directions) packet stream > 200 ms
    mt = [float(x[0]) for x in P]
    fl["flow_quiet_gt200ms"] = [{"start_s": round(mt[i], 3), "len_ms": round((mt[i + 1] - mt[i]) * 1000, 3),
                                 "last_sender": fmt_ep(P[i][1]), "next_sender": fmt_ep(P[i + 1][1])}
                                for i in range(len(mt) - 1) if mt[i + 1] - mt[i] > 0.2]
    eps = {}
    for e in key:
        eps[fmt_ep(e)] = {"ipclass": ipclass(e[0]), "portclass": portclass(e[1]),
                          "distinct_peer_eps": len(peers[e]), "distinct_peer_ips": len({p[0] for p in peers[e]}),
                          "sent_first": P[0][1] == e}
    fl["endpoints"] = eps
    result["flows"].append(fl)

import os
os.makedirs("/tmp/gt37/out", exist_ok=True)
json.dump(result, open(f"/tmp/gt37/out/{name}.json", "w"), indent=1)

# --- text summary ---
print(f"# {name}: {len(pk)} UDP datagrams, strict order={mono}, flows>={MIN}: {len(result['flows'])}")
print("largest flows:", result["largest_flows"])
for fl in result["flows"]:
    print(f"\n## flow {fl['a']} <-> {fl['b']}  ({fl['packets']} pkts)")
    for e, v in fl["endpoints"].items(): print("  ep", e, v)
    print(f"  flow-level quiet (both directions) > 200 ms: {len(fl['flow_quiet_gt200ms'])}")
    for z in fl["flow_quiet_gt200ms"]: print("    ", z)
    for lab, r in fl["dirs"].items():
        print(f"  [{lab}] n={r['packets']} first={r['first_s']} last={r['last_s']}")
        if "T_ms" not in r: continue
        print(f"    mode bin {r['mode_bin_ms']} ms count={r['mode_bin_count']} ({r['mode_bin_frac']:.3f}) T={r['T_ms']:.4f} ms Hz={r['Hz'] if r['Hz'] is None else round(r['Hz'],3)} top={r['top_bins']} top5ms={r['top_bins_5ms']}")
        if "T2_ms" in r:
            print(f"    bursts(<0.5ms) frac={r['burst_frac']:.3f}; mode>=0.5ms bin {r['mode2_bin_ms']} T2={r['T2_ms']:.4f} Hz2={r['Hz2']:.3f}")
        print(f"    median={r['median_gap_ms']:.4f} p99={r['p99_gap_ms']:.4f} mean={r['mean_gap_ms']:.4f} max={r['max_gap_ms']:.3f} ms; J_naive={r['jitter_naive_ms']:.4f} J_grid={r['jitter_grid_ms']:.4f} mean|Dgrid|={r['mean_absdev_grid_ms']:.4f}")
        print(f"    silence thr={r.get('silence_threshold_ms'):.3f} ms; head={r.get('head_silence_ms')} tail={r.get('tail_silence_ms')} ms; n_silences={len(r['silences'])}")
        for s in r["silences"]:
            print(f"      start={s['start_s']:.3f} len={s['len_ms']:.3f} ms other_inside={s['other_pkts_inside']} other_max_overlap={s['other_max_quiet_overlap_ms']} -> {s['verdict']}")
        best = sorted(r["seq"], key=lambda c: (-c["exact"], -c["loose"]))
        cands = [c for c in best if c["exact"] > 0.9 or c["loose"] > 0.9]
        print(f"    seq cands(>0.9): {len(cands)}")
        for c in cands[:12]: print("      ", c)
        if not cands:
            print("      best:", best[:3])
        print(f"    payload len {r['payload_len']} entropy {r['entropy']}")
        print(f"    first8 examples {r['first8_examples']}")
