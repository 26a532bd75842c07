#!/usr/bin/env python3
"""Game streams of a layout no dissector knows, with scripted silences.

Writes a pcap (Ethernet, IPv4, UDP, microsecond timestamps) and a truth JSON
taken from the simulator's own log: every packet it put in the capture and
every silence it scheduled, with who went quiet. The analysis reads only the
pcap; tests/timing/check_timing.py compares the two.

Flows (all deterministic from --seed):
- "client capture": a player at 192.168.1.20 (TTL 128, the capture host)
  and a public server (TTL 52 on arrival, 20 ms +-2 ms one way, 3 % of its
  packets lost before the capture). Client ticks at 30 Hz, server at 60 Hz,
  each send +-0.5 ms off its tick. Payloads: a u16 LE counter at offset 2
  then random bytes. Scripted: a freeze (both quiet), the server quiet, the
  client quiet.
- "mid-path": two public hosts on equal ports (TTLs 55 and 60, so the capture
  is at neither end), 20 Hz each way, random payloads; one side goes quiet.

Truth per flow: the endpoints as the analysis should name them (client
first) with the evidence, the vantage, the tick of each direction, and each
stall: its direction, cause, and the captured packets bounding it.
"""
import argparse
import json
import random
import struct

US = 1_000_000


class Flow:
    def __init__(self, name, client, server, hz, ttl, delay, loss, capture_at, quiet):
        self.name, self.client, self.server = name, client, server
        self.hz, self.ttl, self.delay, self.loss = hz, ttl, delay, loss
        self.capture_at = capture_at  # "client" or None (mid-path: both delayed)
        self.quiet = quiet  # [(who, start_s, dur_s)], who: "client", "server" or "both"

    def sender_quiet(self, who, t):
        return any(w in (who, "both") and s <= t < s + d for w, s, d in self.quiet)


def packets(flow, duration, rng):
    """(capture time in us, direction 0 c>s / 1 s>c, payload, send time in s) of every captured packet."""
    out = []
    for d, who in ((0, "client"), (1, "server")):
        period = 1.0 / flow.hz[d]
        counter = rng.randrange(65536)
        k = 0
        while True:
            sent = 0.2 + 0.05 * d + k * period + rng.uniform(-0.0005, 0.0005)
            k += 1
            if sent >= duration:
                break
            if flow.sender_quiet(who, sent):
                continue
            counter = (counter + 1) & 0xFFFF
            at_capture = who == flow.capture_at
            delay = 0.0 if at_capture else flow.delay[d] + rng.uniform(-0.002, 0.002)
            if not at_capture and rng.random() < flow.loss[d]:
                continue
            body = bytes([0x5A, d]) + struct.pack("<H", counter) + rng.randbytes(rng.randrange(16, 120))
            out.append((round((sent + delay) * US), d, body, sent))
    out.sort(key=lambda p: (p[0], p[1]))
    return out


def bounds(pkts, start, end, dirs):
    """Of the captured packets of `dirs`: the last to arrive of those sent before
    `start`, and the first to arrive of those sent from `end` on."""
    before = max((p for p in pkts if p[1] in dirs and p[3] < start), key=lambda p: p[0])
    after = min((p for p in pkts if p[1] in dirs and p[3] >= end), key=lambda p: p[0])
    return before, after


def stall_truth(flow, pkts, vantage):
    stalls = []
    for who, start, dur in flow.quiet:
        if who == "both":
            last, first = bounds(pkts, start, start + dur, (0, 1))
            stalls.append({"dir": last[1], "cause": "both_quiet", "start_us": last[0], "end_us": first[0]})
            continue
        d = 0 if who == "client" else 1
        last, first = bounds(pkts, start, start + dur, (d,))
        if vantage == "unknown":
            cause = "one_side_quiet"
        else:
            cause = "local_quiet" if who == vantage else "remote_quiet"
        stalls.append({"dir": d, "cause": cause, "start_us": last[0], "end_us": first[0]})
    return sorted(stalls, key=lambda s: s["start_us"])


def frame(flow, p):
    ts, d, body, _ = p
    (sip, sport), (dip, dport) = (flow.client, flow.server) if d == 0 else (flow.server, flow.client)
    udp = struct.pack("!HHHH", sport, dport, 8 + len(body), 0) + body
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, flow.ttl[d], 17, 0,
                     bytes(map(int, sip.split("."))), bytes(map(int, dip.split("."))))
    csum = sum(struct.unpack("!10H", ip))
    while csum >> 16:
        csum = (csum & 0xFFFF) + (csum >> 16)
    ip = ip[:10] + struct.pack("!H", ~csum & 0xFFFF) + ip[12:]
    eth = bytes.fromhex("020000000002" "020000000001" "0800")
    return ts, eth + ip + udp


def flows():
    return [
        Flow("client capture", ("192.168.1.20", 61000), ("52.16.251.62", 59238), (30, 60), (128, 52),
             (0.020, 0.020), (0.0, 0.03), "client",
             [("both", 3.0, 1.5), ("server", 6.0, 0.8), ("client", 9.0, 0.6)]),
        Flow("mid-path", ("198.51.100.10", 3074), ("203.0.113.20", 3074), (20, 20), (55, 60),
             (0.015, 0.015), (0.0, 0.0), None, [("server", 5.0, 1.2)]),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pcap", required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--duration", type=float, default=12.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    records, truth = [], []
    for f in flows():
        pkts = packets(f, a.duration, rng)
        vantage = f.capture_at or "unknown"
        reason = "private address behind NAT" if f.capture_at else "sent first"
        truth.append({"name": f.name, "client": "%s:%d" % f.client, "server": "%s:%d" % f.server,
                      "roles_reason": reason, "vantage": vantage, "tick_hz": list(f.hz),
                      "packets": [sum(1 for p in pkts if p[1] == d) for d in (0, 1)],
                      "stalls": stall_truth(f, pkts, vantage)})
        records += [frame(f, p) for p in pkts]
    records.sort(key=lambda r: r[0])
    with open(a.pcap, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for ts, data in records:
            out.write(struct.pack("<IIII", ts // US, ts % US, len(data), len(data)) + data)
    with open(a.truth, "w") as out:
        json.dump({"flows": truth}, out, indent=1)


if __name__ == "__main__":
    main()
