#!/usr/bin/env python3
"""Compares `rudpscope-cli analyze --json` of timing_sim.py's pcap, and the RTT
samples in its database, with the simulator's truth.

Usage: check_timing.py TRUTH.json ANALYZE.json ANALYZE.sqlite

Exact: which flows were analysed from timing alone, client and server with
the evidence, the vantage, packets and tick per direction, the stalls
(direction, cause, start and end to the microsecond), and per direction the
fields found in the payloads (or none) with what they tell: the counter's
lost, duplicates, reordered and runs of lost packets; the sender clock's
RFC 3550 jitter; the RTT samples the other side's echo gives (count, min,
median, p99, max to the microsecond, and what they span); the rate drops
and bursts. Prints one line per mismatch and exits 1 if there is any.
"""
import json
import math
import sqlite3
import sys

DIRS = ("client_to_server", "server_to_client")


def check_counter(where, seq, truth, inferred, x, fail):
    if seq is None:
        if "seq" in inferred or "lost" in x:
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


def nearest_rank(samples, q):
    s = sorted(samples)
    return s[max(1, math.ceil(q * len(s) - 1e-9)) - 1]


def check_loss_events(db, conn, d, truth, where, fail):
    """The stored loss events (the Timeline's marks) are the final runs of missing numbers: a run a late
    packet filled is not among them, so their counts are the truth's runs and add up to lost."""
    counts = [r[0] for r in db.execute("SELECT count FROM losses WHERE conn = ? AND dir = ?", (conn, d))]
    want = {} if truth is None else truth["loss_bursts"]
    got = {}
    for n in counts:
        got[str(n)] = got.get(str(n), 0) + 1
    if got != want:
        fail(f"{where}: loss events by length {got}, truth's runs {want}")


def check_rtt_samples(db, conn, d, truth, where, fail):
    """Every sample the store holds for this direction, in capture order, to the microsecond."""
    got = [r[0] for r in db.execute("SELECT rtt_ms FROM rtt_samples WHERE conn = ? AND dir = ? ORDER BY rowid",
                                    (conn, d))]
    bad = [i for i, (g, w) in enumerate(zip(got, truth)) if abs(g - w) > 1e-6]
    if len(got) != len(truth) or bad:
        first = bad[0] if bad else min(len(got), len(truth))
        fail(f"{where}: {len(got)} RTT samples stored, truth {len(truth)}; first difference at sample {first}")


def check_echo_and_clock(where, d, t, inferred, x, fail):
    """The clock field and its jitter, the echo field, and the RTT of this direction's data
    (from the other direction's echo)."""
    ts, ack, rtt = t["ts"][d], t["ack"][d], t["rtt"][d]
    want_ts = ts and ts["field"]
    if not same_field(inferred.get("ts"), want_ts):
        fail(f"{where}: clock {inferred.get('ts')}, truth {want_ts}")
    if ts and abs(x.get("jitter_ms", -1) - ts["jitter_ms"]) > 1e-9:
        fail(f"{where}: jitter {x.get('jitter_ms')} ms, truth {ts['jitter_ms']}")
    if not ts and "jitter_ms" in x:
        fail(f"{where}: jitter given without a clock field")
    if not same_field(inferred.get("ack"), ack):
        fail(f"{where}: echo {inferred.get('ack')}, truth {ack}")
    if not rtt:
        if "rtt_ms" in x:
            fail(f"{where}: RTT given without an echo")
        return
    got, s = x.get("rtt_ms", {}), rtt["samples"]
    want = {"samples": len(s), "min": min(s), "p50": nearest_rank(s, 0.5), "p99": nearest_rank(s, 0.99),
            "max": max(s), "span": rtt["span"]}
    for key, value in want.items():
        g = got.get(key)
        if g != value if isinstance(value, (int, str)) else g is None or abs(g - value) > 1e-6:
            fail(f"{where}: RTT {key} {g}, truth {value}")


def check_rate_changes(where, truth, x, fail):
    """The scripted rate drops and bursts: kind, start and end to the microsecond, the gaps
    between, whether open, the rate over them; none elsewhere (a direction with a tick)."""
    if x["tick_hz"] == 0:
        if "rate_changes" in x or truth:
            fail(f"{where}: rate changes {x.get('rate_changes')} without a tick, truth {truth}")
        return
    got = [{"kind": c["kind"], "start_us": round(c["start"] * 1e6), "end_us": round(c["end"] * 1e6),
            "open": c["open"]} for c in x.get("rate_changes", [])]
    want = [{k: t[k] for k in ("kind", "start_us", "end_us", "open")} for t in truth]
    if got != want:
        fail(f"{where}: rate changes\n  got   {got}\n  truth {want}")
        return
    for c, t in zip(x["rate_changes"], truth):
        rate = t["gaps"] / ((t["end_us"] - t["start_us"]) / 1e6)
        if abs(c["rate_hz"] - rate) > 1e-3 * rate or abs(c["usual_hz"] - x["tick_hz"]) > 0.02 * x["tick_hz"]:
            fail(f"{where}: rate {c['rate_hz']} (usually {c['usual_hz']}), truth {rate} (tick {x['tick_hz']})")


def same_field(got, want):
    if not got or not want:
        return not got and not want
    return got.keys() == want.keys() and all(
        abs(got[k] - want[k]) <= 1e-9 if k == "fit" else got[k] == want[k] for k in want)


def check_flow(t, c, db, fail):
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
        if "retransmissions" in x:
            fail(f"{name} {dname}: retransmissions given without a dissector")
        check_counter(f"{name} {dname}", t["seq"][d], t["counter"][d], c["inferred"][dname], x, fail)
        check_echo_and_clock(f"{name} {dname}", d, t, c["inferred"][dname], x, fail)
        check_rate_changes(f"{name} {dname}", t["rate_changes"][d], x, fail)
        check_loss_events(db, c["id"], d, t["counter"][d], f"{name} {dname}", fail)
        check_rtt_samples(db, c["id"], d, t["rtt"][d]["samples"] if t["rtt"][d] else [], f"{name} {dname}", fail)
        got_stalls += [{"dir": d, "cause": s["cause"], "start_us": round(s["start"] * 1e6),
                        "end_us": round(s["end"] * 1e6)} for s in x["stalls"]]
    got_stalls.sort(key=lambda s: s["start_us"])
    if got_stalls != t["stalls"]:
        fail(f"{name}: stalls\n  got   {got_stalls}\n  truth {t['stalls']}")


def main():
    truth = json.load(open(sys.argv[1]))
    summary = json.load(open(sys.argv[2]))
    db = sqlite3.connect(f"file:{sys.argv[3]}?mode=ro", uri=True)
    failures = []
    conns = {(c["client"], c["server"]): c for c in summary["connections"]}
    for t in truth["flows"]:
        c = conns.get((t["client"], t["server"]))
        if c is None:
            failures.append(f"{t['name']}: no connection {t['client']} -> {t['server']} in {sorted(conns)}")
            continue
        check_flow(t, c, db, failures.append)
    if len(conns) != len(truth["flows"]):
        failures.append(f"{len(conns)} connections, truth {len(truth['flows'])}")
    for f in failures:
        print("MISMATCH", f)
    n = sum(len(t["stalls"]) for t in truth["flows"])
    k = sum(1 for t in truth["flows"] for s in t["seq"] if s)
    r = sum(len(x["samples"]) for t in truth["flows"] for x in t["rtt"] if x)
    p = sum(len(x) for t in truth["flows"] for x in t["rate_changes"])
    print(f"{len(truth['flows'])} flows, {n} stalls, {k} counters, {r} echo RTT samples, {p} rate changes: "
          f"{'all equal' if not failures else 'mismatches above'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
