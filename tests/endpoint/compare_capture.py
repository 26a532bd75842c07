#!/usr/bin/env python3
"""Compares `rudpscope-cli analyze --json` of a loopback capture with the
grudp-endpoint counters of both ends (see README.md "What a capture of it
shows"). Prints one line per connection and direction; exit 1 on a mismatch.

usage: compare_capture.py ANALYSIS.json CLIENT.json SERVER.json"""
import json
import statistics
import sys

# The endpoint's RTT is a difference of two truncated ms clock reads (up to
# 1 ms off), and it reads the clock when its process reads the ack, which can
# be later than the capture saw it: 1 ms more for that, on the median, mean
# and min.
RTT_TOLERANCE_MS = 2.0
# The max is one sample, so it takes the longest of those delays: loopback
# delivers to the socket in a softirq that a loaded machine defers to
# ksoftirqd, a normal-priority thread the endpoints' real-time priority does
# not help (CI under ctest -j2: max 42.92 ms in the capture against the
# endpoint's 45). An ack matched to the wrong copy of a packet would be off by
# the gap between the copies: a copy is sent after a loss is seen, at least
# one RTT (20 ms here) after the original.
RTT_MAX_TOLERANCE_MS = 5.0
TOLERANCE_MS = {"min": RTT_TOLERANCE_MS, "p50": RTT_TOLERANCE_MS, "mean": RTT_TOLERANCE_MS,
                "max": RTT_MAX_TOLERANCE_MS}


def load(path):
    with open(path) as f:
        return json.load(f)


def rtt_stats(samples):
    v = sorted(s["rtt_ms"] for s in samples)
    if not v:
        return None
    return {"samples": len(v), "min": v[0], "p50": statistics.median_low(v), "max": v[-1],
            "mean": statistics.fmean(v)}


def compare_direction(name, sender, ana, same_span):
    """sender: the sending end's connection record; ana: the analysis direction."""
    ok = True
    drops = sender["impairment"]["drops"]
    retx = sender["retransmissions"]
    want_retx = retx["total"] - drops["retransmissions"]
    # The last seq's dropped original: its first surviving copy looks like an original.
    invisible = 1 if sender["impairment"]["last_original_dropped"] and not sender["gave_up"] else 0
    want_retx -= invisible
    # The capture holds exactly what the sender wrote to its socket.
    want_packets = sender["sent_wire"]["total"]
    # Unreliable seq-consuming originals that were dropped are gone for good
    # (a dropped reliable original shows up as an inferred retransmission).
    want_lost = drops["unreliable"] - drops["by_type"]["ACK"]
    checks = [("packets", ana["packets"], want_packets),
              ("retransmissions", ana["retransmissions"], want_retx),
              ("lost", ana["lost"], want_lost)]
    line = [f"{name}:"]
    for label, got, want in checks:
        good = got == want
        ok &= good
        line.append(f"{label} analysis {got} endpoint {want} {'OK' if good else 'MISMATCH'}")
    if invisible:
        line.append("(the last seq's original was dropped: one retransmission cannot be seen)")
    line.append(f"(endpoint retx {retx['total']} = timeout {retx['timeout']} + fast {retx['fast']}, "
                f"analysis timeout {ana['retransmissions_timeout']} fast {ana['retransmissions_fast']} "
                f"inferred {ana['retransmissions_inferred']}; drops {drops['total']} = originals "
                f"{drops['originals']} + retransmissions {drops['retransmissions']}, of them ACK "
                f"{drops['by_type']['ACK']})")
    mine = rtt_stats(sender["rtt_samples"])
    theirs = ana["rtt_ms"]
    if same_span and mine:
        diffs = {k: abs(theirs[k] - mine[k]) for k in ("min", "p50", "max", "mean")}
        good = theirs["samples"] == mine["samples"] and all(diffs[k] <= TOLERANCE_MS[k] for k in diffs)
        ok &= good
        line.append(f"rtt samples analysis {theirs['samples']} endpoint {mine['samples']}, "
                    + ", ".join(f"{k} {theirs[k]:.2f}/{mine[k]:.2f}" for k in diffs)
                    + f" {'OK' if good else 'MISMATCH'}")
    elif mine:
        line.append(f"rtt (partial span: capture after the sender's delay) samples analysis "
                    f"{theirs['samples']} endpoint {mine['samples']}, p50 {theirs['p50']:.2f}/{mine['p50']}")
    print(" ".join(line))
    return ok


def main():
    analysis, client, server = (load(p) for p in sys.argv[1:4])
    by_id = {c["conn_id"]: c for c in analysis["connections"]}
    srv = {c["conn_id"]: c for c in server["connections"]}
    # The endpoint delays on send; only an end without delay is captured where it sends.
    client_undelayed = True
    ok = True
    for c in client["connections"]:
        a = by_id.get(c["conn_id"])
        s = srv.get(c["conn_id"])
        if a is None or s is None:
            print(f"conn {c['conn_id']}: missing in the analysis or the server report")
            ok = False
            continue
        d = a["directions"]
        ok &= compare_direction(f"conn {c['conn_id']} client->server", c, d["client_to_server"],
                                client_undelayed)
        ok &= compare_direction(f"conn {c['conn_id']} server->client", s, d["server_to_client"], False)
    print("AGREE" if ok else "DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
