#!/usr/bin/env python3
"""Markdown tables from /tmp/gt37/out/*.json. Usage: make_tables.py NAME..."""
import sys, json
def f(x, n=3):
    return "-" if x is None else (f"{x:.{n}f}" if isinstance(x, float) else str(x))
for name in sys.argv[1:]:
    R = json.load(open(f"/tmp/gt37/out/{name}.json"))
    for fl in R["flows"]:
        print(f"\n#### {name}: {fl['a']} <-> {fl['b']} ({fl['packets']} pkts)\n")
        print("| direction | pkts | first s | last s | mode bin ms (n, share) | T ms | Hz | mode >=0.5ms (T2, Hz2) | median ms | p99 ms | J_naive ms | J_grid ms | silences |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for lab, r in fl["dirs"].items():
            m2 = f"[{r['mode2_bin_ms'][0]},{r['mode2_bin_ms'][1]}) {r['T2_ms']:.4f} / {r['Hz2']:.2f}; bursts {r['burst_frac']:.3f}" if "T2_ms" in r else "-"
            print(f"| {lab} | {r['packets']} | {r['first_s']:.6f} | {r['last_s']:.6f} | [{r['mode_bin_ms'][0]},{r['mode_bin_ms'][1]}) ({r['mode_bin_count']}, {r['mode_bin_frac']:.3f}) | {r['T_ms']:.4f} | {f(r['Hz'],2)} | {m2} | {r['median_gap_ms']:.4f} | {r['p99_gap_ms']:.4f} | {r['jitter_naive_ms']:.4f} | {r['jitter_grid_ms']:.4f} | {len(r['silences'])} |")
        print("\n| endpoint | address class | port class (IANA) | distinct peer ip:port | distinct peer IPs | sent first |")
        print("|---|---|---|---|---|---|")
        for e, v in fl["endpoints"].items():
            print(f"| {e} | {v['ipclass']} | {v['portclass']} | {v['distinct_peer_eps']} | {v['distinct_peer_ips']} | {v['sent_first']} |")
        print("\n| direction | best seq candidates (off/width/order: exact, loose) | mean H payload[8:] | random same len | pooled H | payload len min/med/max |")
        print("|---|---|---|---|---|---|")
        for lab, r in fl["dirs"].items():
            c = sorted([x for x in r["seq"] if x["exact"] > 0.9 or x["loose"] > 0.9], key=lambda x: (-x["exact"], -x["loose"]))
            if not c:
                b = sorted(r["seq"], key=lambda x: (-x["exact"], -x["loose"]))[:2]
                cs = "none >0.9; best " + "; ".join(f"{x['off']}/{x['w']}/{x['order']}: {x['exact']:.4f}, {x['loose']:.4f}" for x in b)
            else:
                cs = "; ".join(f"{x['off']}/{x['w']}/{x['order']}: {x['exact']:.4f}, {x['loose']:.4f}" for x in c[:3])
            e = r["entropy"]; pl = r["payload_len"]
            print(f"| {lab} | {cs} | {e['mean_H']:.3f} | {e['mean_H_random_same_len']:.3f} | {e['pooled_H']:.3f} | {pl['min']}/{f(pl['median'],1)}/{pl['max']} |")
        with open(f"/tmp/gt37/silences_{name}.md", "w") as o:
            o.write(f"# silences {name} {fl['a']} <-> {fl['b']}\n\n| quiet direction | start s | len ms | other-dir pkts inside | other max quiet overlap ms | verdict |\n|---|---|---|---|---|---|\n")
            for lab, r in fl["dirs"].items():
                for s in r["silences"]:
                    o.write(f"| {lab} | {s['start_s']:.3f} | {s['len_ms']:.3f} | {s['other_pkts_inside']} | {s['other_max_quiet_overlap_ms']:.3f} | {s['verdict']} |\n")
            o.write("\n## flow-level quiet > 200 ms (no packet in either direction)\n\n| start s | len ms | last sender | next sender |\n|---|---|---|---|\n")
            for z in fl["flow_quiet_gt200ms"]:
                o.write(f"| {z['start_s']:.3f} | {z['len_ms']:.3f} | {z['last_sender']} | {z['next_sender']} |\n")
