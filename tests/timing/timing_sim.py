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


class Layout:
    """Where a flow's payload carries its counter, its echo of the peer's counter and its
    sender's clock: (offset, size, byte order) each, the echo's style ("last" received or
    "next" expected) and the clock's ticks per second. None: random bytes there."""
    def __init__(self, seq, echo=None, echo_style="last", ts=None, ts_hz=1000):
        self.seq, self.echo, self.echo_style, self.ts, self.ts_hz = seq, echo, echo_style, ts, ts_hz

    def put(self, body, field, value):
        off, size, order = field
        body[off:off + size] = (value & ((1 << 8 * size) - 1)).to_bytes(size, order)


PLAYER = Layout(seq=(2, 2, "little"), echo=(4, 2, "little"), ts=(6, 4, "big"))
SERVER_SIDE = Layout(seq=(0, 4, "big"), echo=(4, 4, "big"), echo_style="next", ts=(8, 4, "little"),
                     ts_hz=65536)


class Flow:
    def __init__(self, name, client, server, hz, ttl, delay, loss, capture_at, quiet, layout=None,
                 server_lag=0.05, start=0.2, paces=()):
        self.name, self.client, self.server = name, client, server
        self.hz, self.ttl, self.delay, self.loss = hz, ttl, delay, loss
        self.capture_at = capture_at  # "client", "server" or None (mid-path: both delayed)
        self.quiet = quiet  # [(who, start_s, dur_s)], who: "client", "server" or "both"
        self.layout = layout  # None: random bytes (no counter, echo or clock)
        self.counter = layout is not None
        self.server_lag = server_lag  # the server's first send after the client's
        self.start = start  # the client's first send
        self.paces = paces  # [(who, start_s, end_s, hz)]: that side sends at hz meanwhile

    def hz_at(self, d, t):
        who = ("client", "server")[d]
        return next((hz for w, s, e, hz in self.paces if w == who and s <= t < e), self.hz[d])

    def sender_quiet(self, who, t):
        return any(w in (who, "both") and s <= t < s + d for w, s, d in self.quiet)


def ticks(flow, d, duration):
    """The ideal send times of direction d: each a period of the rate at the one before."""
    t, out = flow.start + flow.server_lag * d, []
    while t < duration:
        out.append(t)
        t += 1.0 / flow.hz_at(d, t)
    return out


def sends(flow, d, duration, rng):
    """Send times of direction d; a packet's index among them is its number (the counter)."""
    who = ("client", "server")[d]
    out = []
    for tick in ticks(flow, d, duration):
        sent = tick + rng.uniform(-0.0005, 0.0005)
        if sent < duration and not flow.sender_quiet(who, sent):
            out.append(sent)
    return out


def journeys(flow, d, duration, rng, log):
    """Direction d's packets: (number, send time, capture time or None if lost before the
    capture, arrival time at the peer or None, duplicated). Away from the capture `loss` of
    the packets are dropped before it, 1 % arrive 30 ms late (past the next ones; both
    neighbours delivered) and 1 % are duplicated on the way. A packet the capture host sends
    is captured as it leaves and reaches the peer after the path's delay."""
    times = sends(flow, d, duration, rng)
    local = ("client", "server")[d] == flow.capture_at
    dropped = [not local and rng.random() < flow.loss[d] for _ in times]
    log[d] = {"late": [], "duplicated": []}
    out = []
    for i, sent in enumerate(times):
        delay = flow.delay[d] + rng.uniform(-0.002, 0.002)
        if dropped[i]:
            out.append((i, sent, None, None, False))
            continue
        inner = 0 < i < len(times) - 1 and not dropped[i - 1] and not dropped[i + 1]
        if not local and inner and rng.random() < 0.01:
            delay += 0.030
            log[d]["late"].append(i)
        dup = not local and rng.random() < 0.01
        if dup:
            log[d]["duplicated"].append(i)
        captured = sent if local else sent + delay
        out.append((i, sent, captured, sent + delay, dup))
    return out


def payload(flow, d, j, peer, bases, clock, rng):
    """The payload of direction d's packet j, sent at j[1]: 0x5A, the direction, random bytes,
    and where the layout says so the counter, the highest number of the peer's packets
    arrived by then (or the next one expected) and the sender's clock."""
    body = bytearray([0x5A, d]) + rng.randbytes(rng.randrange(18, 120))
    lay = flow.layout
    if lay is None:
        return bytes(body)
    lay.put(body, lay.seq, bases[d] + j[0])
    if lay.echo:
        got = [n for n, _, _, arrived, _ in peer if arrived is not None and arrived <= j[1]]
        if got:
            lay.put(body, lay.echo, bases[1 - d] + max(got) + (lay.echo_style == "next"))
    if lay.ts:
        lay.put(body, lay.ts, clock[d] + round(j[1] * lay.ts_hz))
    return bytes(body)


def packets(flow, duration, rng, log):
    """(capture time in us, direction 0 c>s / 1 s>c, payload, send time in s, number) of every
    captured packet, capture order."""
    trips = [journeys(flow, d, duration, rng, log) for d in (0, 1)]
    bases = [rng.randrange(1 << 16), rng.randrange(1 << 16)]
    clock = [rng.randrange(1 << 31), rng.randrange(1 << 31)]
    out = []
    for d in (0, 1):
        for j in trips[d]:
            body = payload(flow, d, j, trips[1 - d], bases, clock, rng)
            if j[2] is None:
                continue
            out.append((round(j[2] * US), d, body, j[1], j[0]))
            if j[4]:
                out.append((round(j[2] * US) + 100, d, body, j[1], j[0]))
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


def field_json(field):
    off, size, order = field
    return {"offset": off, "size": size, "byte_order": None if size == 1 else order[0] + "e"}


def value(body, field):
    off, size, order = field
    return int.from_bytes(body[off:off + size], order)


def ts_truth(flow, pkts, d):
    """The sender's clock field, and the RFC 3550 jitter of the direction's captured packets
    in capture order: D = (R_j - R_i) - (S_j - S_i), J += (|D| - J) / 16 (jitter.h)."""
    if flow.layout is None or flow.layout.ts is None:
        return None
    lay = flow.layout
    mine = [p for p in pkts if p[1] == d]
    return {"field": dict(field_json(lay.ts), unit_hz=lay.ts_hz, fit=clock_fit(pkts, d, lay)),
            "jitter_ms": rfc3550(mine, lay),
            # Over the packets whose counter is ahead of every earlier one (no duplicate, no late
            # packet): what the analysis with a contract's unreliable numbering and clock gives.
            "jitter_new_numbers_ms": rfc3550([p for p, new in zip(mine, ahead(mine, lay.seq)) if new], lay)}


def rfc3550(pkts, lay):
    j, prev = 0.0, None
    for p in pkts:
        s = value(p[2], lay.ts)
        if prev:
            step = (s - prev[1]) % (1 << 32)
            step -= (1 << 32) if step >= 1 << 31 else 0
            j += (abs((p[0] - prev[0]) / 1e3 - step * 1e3 / lay.ts_hz) - j) / 16
        prev = (p[0], s)
    return j


def ahead(pkts, seq):
    """Per packet: its counter is ahead of the highest so far (serial arithmetic, half the range)."""
    bits, high, out = 8 * seq[1], None, []
    for p in pkts:
        n = value(p[2], seq)
        fwd = None if high is None else (n - high) % (1 << bits)
        new = high is None or 0 < fwd < (1 << (bits - 1))
        high = n if new else high
        out.append(new)
    return out


def clock_fit(pkts, d, lay):
    """The clock's fit as field_inference.h defines it: of the direction's first 256 captured
    packets, the share whose capture time minus clock time lies within 50 ms of the median."""
    mine = [p for p in pkts if p[1] == d][:256]
    first = value(mine[0][2], lay.ts)
    r = [(p[0] - mine[0][0]) / 1e3 - ((value(p[2], lay.ts) - first) % (1 << 32)) * 1e3 / lay.ts_hz
         for p in mine]
    median = sorted(r)[len(r) // 2]
    return sum(1 for x in r if abs(x - median) <= 50) / len(r)


def echo_truth(flow, pkts, d):
    """Direction d's field echoing the peer's counter, with its fit as field_inference.h
    defines it: of d's first 256 captured packets sent after the peer's first capture, the
    share whose echo is at most kMaxEchoLag (1023) behind the peer's highest number captured
    before it and not ahead by more than one."""
    if flow.layout is None or flow.layout.echo is None:
        return None
    lay, bits = flow.layout, 8 * flow.layout.echo[1]
    high, judged, within = None, 0, 0
    mine = 0
    base = {}
    for p in pkts:
        if p[1] != d:
            base.setdefault("peer", value(p[2], lay.seq) - p[4])
            high = p[4] if high is None else max(high, p[4])
            continue
        mine += 1
        if mine > 256 or high is None:
            continue
        lag = ((base["peer"] + high) - value(p[2], lay.echo)) % (1 << bits)
        lag -= (1 << bits) if lag >= 1 << (bits - 1) else 0
        judged += 1
        within += -1 <= lag <= 1023
    return dict(field_json(lay.echo), fit=within / judged,
                echoes="next expected" if lay.echo_style == "next" else "last received")


def rtt_truth(flow, pkts, d, vantage):
    """RTT samples of direction d's data: from the capture of its packet n to the capture of
    the first peer packet whose echo changed to n, for n captured once (field_inference.h)."""
    if flow.layout is None or flow.layout.echo is None:
        return None
    lay = flow.layout
    mask = (1 << 8 * lay.echo[1]) - 1
    seen, number_of, samples, last = {}, {}, [], None
    for p in pkts:
        if p[1] == d:
            seen.setdefault(p[4], []).append(p[0])
            number_of[value(p[2], lay.seq) & mask] = p[4]
            continue
        echo = value(p[2], lay.echo)
        if not seen or echo == last:
            continue
        last = echo
        n = number_of.get((echo - (lay.echo_style == "next")) & mask)
        if n is not None and len(seen[n]) == 1:
            samples.append((p[0] - seen[n][0]) / 1e3)
    local = ("client", "server")[d] == vantage
    return {"samples": samples, "span": "round_trip" if local else "receiver_delay"}


def pace_truth(flow, pkts, d, duration):
    """Direction d's scripted rate changes (the capture host's side: every packet captured as
    sent): from the first packet sent at the new rate to the first sent after it, the gaps
    between, and whether it lasted to the end."""
    out = []
    who = ("client", "server")[d]
    mine = [p for p in pkts if p[1] == d]
    for w, start, end, hz in flow.paces:
        if w != who:
            continue
        # indices of the ideal ticks are the packets' (this side is captured as it sends)
        first = next(i for i, t in enumerate(ticks(flow, d, duration)) if t >= start)
        last = next((i for i, t in enumerate(ticks(flow, d, duration)) if t >= end), len(mine) - 1)
        out.append({"kind": "drop" if hz < flow.hz[d] else "burst", "start_us": mine[first][0],
                    "end_us": mine[last][0], "gaps": last - first, "open": end >= duration})
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
             [("both", 3.0, 1.5), ("server", 6.0, 0.8), ("client", 9.0, 0.6)], PLAYER),
        Flow("mid-path", ("198.51.100.10", 3074), ("203.0.113.20", 3074), (20, 20), (55, 60),
             (0.015, 0.015), (0.0, 0.0), None, [("server", 5.0, 1.2)]),
        Flow("keepalive", ("192.168.1.20", 61001), ("198.51.100.77", 3478), (4, 4), (128, 52),
             (0.010, 0.010), (0.0, 0.0), "client", [], server_lag=0.012, start=0.3),
        Flow("server capture", ("203.0.113.50", 50000), ("198.51.100.5", 27015), (20, 64), (49, 64),
             (0.035, 0.035), (0.05, 0.0), "server", [], SERVER_SIDE,
             paces=[("server", 5.0, 8.0, 16), ("server", 9.5, 10.7, 256)]),
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
        reason = {"client": "private address behind NAT", "server": "higher port"}.get(f.capture_at,
                                                                                     "sent first")
        truth.append({"name": f.name, "client": "%s:%d" % f.client, "server": "%s:%d" % f.server,
                      "roles_reason": reason, "vantage": vantage, "tick_hz": list(f.hz),
                      "packets": [sum(1 for p in pkts if p[1] == d) for d in (0, 1)],
                      "stalls": stall_truth(f, pkts, vantage),
                      "counter": [counter_truth(pkts, d, log) if f.counter else None for d in (0, 1)],
                      "seq": [dict(field_json(f.layout.seq), fit=sample_fit(pkts, d))
                              if f.counter else None for d in (0, 1)],
                      "ts": [ts_truth(f, pkts, d) for d in (0, 1)],
                      "ack": [echo_truth(f, pkts, d) for d in (0, 1)],
                      "rtt": [rtt_truth(f, pkts, d, vantage) for d in (0, 1)],
                      "rate_changes": [pace_truth(f, pkts, d, a.duration) for d in (0, 1)]})
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
