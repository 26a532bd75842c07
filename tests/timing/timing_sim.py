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
  each send +-0.5 ms off its tick, 1 % of the server's packets 30 ms late
  and 1 % duplicated. Payloads: 0x5A, the direction, a u16 LE counter at
  offset 2 (the packet's number), then random bytes. Scripted: a freeze (both quiet), the server quiet, the
  client quiet.
- "mid-path": two public hosts on equal ports (TTLs 55 and 60, so the capture
  is at neither end), 20 Hz each way, no counter (random bytes), 1 % late and
  1 % duplicated each way; one side goes quiet.
- "keepalive" (from 0.3 s): the player's request every 250 ms, answered 22 ms later as
  captured: gaps of 228 ms between exchanges are its rhythm, not freezes
  (no stalls), and no counter.

Truth per flow: the endpoints as the analysis should name them (client
first) with the evidence, the vantage, the tick of each direction, each
stall (its direction, cause, and the captured packets bounding it), and per
direction the counter and what it tells (lost, duplicates, reordered, runs
of lost packets).
"""
import argparse
import json
import random
import struct

US = 1_000_000


class Flow:
    def __init__(self, name, client, server, hz, ttl, delay, loss, capture_at, quiet, counter=True,
                 server_lag=0.05, start=0.2):
        self.name, self.client, self.server = name, client, server
        self.hz, self.ttl, self.delay, self.loss = hz, ttl, delay, loss
        self.capture_at = capture_at  # "client" or None (mid-path: both delayed)
        self.quiet = quiet  # [(who, start_s, dur_s)], who: "client", "server" or "both"
        self.counter = counter  # a u16 LE counter at offset 2, else random bytes there
        self.server_lag = server_lag  # the server's first send after the client's
        self.start = start  # the client's first send

    def sender_quiet(self, who, t):
        return any(w in (who, "both") and s <= t < s + d for w, s, d in self.quiet)


def sends(flow, d, duration, rng):
    """Send times of direction d; a packet's index among them is its number (the counter)."""
    who = ("client", "server")[d]
    period, out, k = 1.0 / flow.hz[d], [], 0
    while True:
        sent = flow.start + flow.server_lag * d + k * period + rng.uniform(-0.0005, 0.0005)
        k += 1
        if sent >= duration:
            return out
        if not flow.sender_quiet(who, sent):
            out.append(sent)


def packets(flow, duration, rng, log):
    """(capture time in us, direction 0 c>s / 1 s>c, payload, send time in s, number) of every
    captured packet. Away from the capture, `loss` of the packets are dropped, 1 % arrive 30 ms
    late (past the next ones; both neighbours delivered) and 1 % are duplicated on the way."""
    out = []
    for d in (0, 1):
        times = sends(flow, d, duration, rng)
        local = ("client", "server")[d] == flow.capture_at
        dropped = [not local and rng.random() < flow.loss[d] for _ in times]
        base = rng.randrange(65536)
        log[d] = {"late": [], "duplicated": []}
        for i, sent in enumerate(times):
            if dropped[i]:
                continue
            delay = 0.0 if local else flow.delay[d] + rng.uniform(-0.002, 0.002)
            inner = 0 < i < len(times) - 1 and not dropped[i - 1] and not dropped[i + 1]
            if not local and inner and rng.random() < 0.01:
                delay += 0.030
                log[d]["late"].append(i)
            head = struct.pack("<H", (base + i) & 0xFFFF) if flow.counter else rng.randbytes(2)
            body = bytes([0x5A, d]) + head + rng.randbytes(rng.randrange(16, 120))
            out.append((round((sent + delay) * US), d, body, sent, i))
            if not local and rng.random() < 0.01:
                out.append((round((sent + delay) * US) + 100, d, body, sent, i))
                log[d]["duplicated"].append(i)
    out.sort(key=lambda p: (p[0], p[1]))
    return out


def counter_truth(pkts, d, log):
    """What the counter tells of direction d, from the simulator's log: numbers missing
    between the first and the highest captured (lost), second copies (duplicates),
    packets captured after a higher number (reordered), runs of missing numbers."""
    mine = [p[4] for p in pkts if p[1] == d]
    missing = set(range(min(mine), max(mine) + 1)) - set(mine)
    bursts, run = {}, 0
    for n in range(min(mine), max(mine) + 2):
        if n in missing:
            run += 1
        elif run:
            bursts[str(run)] = bursts.get(str(run), 0) + 1
            run = 0
    highest, seen, reordered = -1, set(), 0
    for n in mine:
        reordered += n < highest and n not in seen
        seen.add(n)
        highest = max(highest, n)
    return {"lost": len(missing), "duplicates": len(log[d]["duplicated"]), "reordered": reordered,
            "loss_bursts": bursts}


def sample_fit(pkts, d):
    """The counter's fit as counter_inference.h defines it: of consecutive packets among the
    direction's first 256, the share whose number stepped by 1..16 either way."""
    nums = [p[4] for p in pkts if p[1] == d][:256]
    steps = [b - a for a, b in zip(nums, nums[1:])]
    return sum(1 for s in steps if s != 0 and abs(s) <= 16) / len(steps)


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
    ts, d, body = p[:3]
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
             (0.015, 0.015), (0.0, 0.0), None, [("server", 5.0, 1.2)], counter=False),
        Flow("keepalive", ("192.168.1.20", 61001), ("198.51.100.77", 3478), (4, 4), (128, 52),
             (0.010, 0.010), (0.0, 0.0), "client", [], counter=False, server_lag=0.012, start=0.3),
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
        log = {}
        pkts = packets(f, a.duration, rng, log)
        vantage = f.capture_at or "unknown"
        reason = "private address behind NAT" if f.capture_at else "sent first"
        truth.append({"name": f.name, "client": "%s:%d" % f.client, "server": "%s:%d" % f.server,
                      "roles_reason": reason, "vantage": vantage, "tick_hz": list(f.hz),
                      "packets": [sum(1 for p in pkts if p[1] == d) for d in (0, 1)],
                      "stalls": stall_truth(f, pkts, vantage),
                      "counter": [counter_truth(pkts, d, log) if f.counter else None for d in (0, 1)],
                      "seq": [{"offset": 2, "size": 2, "byte_order": "le", "fit": sample_fit(pkts, d)}
                              if f.counter else None for d in (0, 1)]})
        records += [frame(f, p) for p in pkts]
    records.sort(key=lambda r: r[0])
    with open(a.pcap, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for ts, data in records:
            out.write(struct.pack("<IIII", ts // US, ts % US, len(data), len(data)) + data)
    with open(a.truth, "w") as out:
        json.dump({"first_us": records[0][0], "flows": truth}, out, indent=1)


if __name__ == "__main__":
    main()
