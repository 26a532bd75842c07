#!/usr/bin/env python3
"""Compares `rudpscope-cli analyze --json` of timing_sim.py's pcap with its truth.

Exact: which flows were analysed from timing alone, client and server with
the evidence, the vantage, packets and tick per direction, the stalls
(direction, cause, start and end to the microsecond), and per direction the
counter found in the payloads (or none) with what it tells: lost,
duplicates, reordered and the runs of lost packets. Prints one line per
mismatch and exits 1 if there is any.
"""
import json
import sys

DIRS = ("client_to_server", "server_to_client")


def check_counter(where, seq, truth, inferred, x, fail):
    if seq is None:
        if inferred != {} or "lost" in x:
            fail(f"{where}: a counter inferred where there is none: {inferred}")
        return
    got = inferred.get("seq")
    if got is None or abs(got["fit"] - seq["fit"]) > 1e-9 or \
            any(got[k] != seq[k] for k in ("offset", "size", "byte_order")):
        fail(f"{where}: counter {got}, truth {seq}")
        return
    for key, want in truth.items():
        if x.get(key) != want:
            fail(f"{where}: {key} {x.get(key)}, truth {want}")


def check_flow(t, c, fail):
    name = t["name"]
    if c.get("analysis") != "not decoded (timing only)":
        fail(f"{name}: analysis is {c.get('analysis')!r}")
    for key in ("roles_reason", "vantage"):
        if c.get(key) != t[key]:
            fail(f"{name}: {key} {c.get(key)!r}, truth {t[key]!r}")
    got_stalls = []
    for d, dname in enumerate(DIRS):
        x = c["directions"][dname]
        if x["packets"] != t["packets"][d]:
            fail(f"{name} {dname}: {x['packets']} packets, truth {t['packets'][d]}")
        if x["tick_hz"] != t["tick_hz"][d]:
            fail(f"{name} {dname}: tick {x['tick_hz']} Hz, truth {t['tick_hz'][d]}")
        for key in ("retransmissions", "rtt_ms", "jitter_ms"):
            if key in x:
                fail(f"{name} {dname}: {key} given without a dissector")
        check_counter(f"{name} {dname}", t["seq"][d], t["counter"][d], c["inferred"][dname], x, fail)
        got_stalls += [{"dir": d, "cause": s["cause"], "start_us": round(s["start"] * 1e6),
                        "end_us": round(s["end"] * 1e6)} for s in x["stalls"]]
    got_stalls.sort(key=lambda s: s["start_us"])
    if got_stalls != t["stalls"]:
        fail(f"{name}: stalls\n  got   {got_stalls}\n  truth {t['stalls']}")


def main():
    truth = json.load(open(sys.argv[1]))
    summary = json.load(open(sys.argv[2]))
    failures = []
    conns = {(c["client"], c["server"]): c for c in summary["connections"]}
    for t in truth["flows"]:
        c = conns.get((t["client"], t["server"]))
        if c is None:
            failures.append(f"{t['name']}: no connection {t['client']} -> {t['server']} in {sorted(conns)}")
            continue
        check_flow(t, c, failures.append)
    if len(conns) != len(truth["flows"]):
        failures.append(f"{len(conns)} connections, truth {len(truth['flows'])}")
    for f in failures:
        print("MISMATCH", f)
    n = sum(len(t["stalls"]) for t in truth["flows"])
    k = sum(1 for t in truth["flows"] for s in t["seq"] if s)
    print(f"{len(truth['flows'])} flows, {n} stalls, {k} counters: "
          f"{'all equal' if not failures else 'mismatches above'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
