#!/usr/bin/env python3
"""A QUIC capture made by a second implementation: aioquic's sans-I/O
connections (the PyPI wheel, 1.7.2) talk through a simulated path with a
fixed one-way delay and random loss, on a virtual clock. The client's side of
the path is written as a pcap (what a capture at the client sees), with the
client's TLS key log and the truth the endpoints know.

Unlike quic-go, aioquic spins the spin bit (RFC 9000 17.4) on every
connection, so its captures give spin-bit RTT to an observer without keys.

The workload is a game's: the client sends 60 Hz inputs as DATAGRAM frames
and a reliable event on stream 0 every 100 ms; the server sends 20 Hz state
as DATAGRAM frames and echoes each event on the same stream.

    PYTHONPATH=DIR_WITH_AIOQUIC aioquic_capture.py OUT --delay-ms 40 --loss 5 --seconds 10 --seed 1

truth.json: the path (delay, loss), each side's datagrams sent and dropped,
and for each direction the capture times (ns) of its spin edges (a datagram
whose 1-RTT packet carries the other spin value than the one before), taken
from the sender's own spin state when it built the datagram.
"""
import argparse
import datetime
import heapq
import json
import os
import random
import ssl
import struct

from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.connection import QuicConnection
from aioquic.buffer import Buffer
from aioquic.quic import events
from aioquic.quic.packet import pull_quic_header
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

CLIENT = ("10.0.0.1", 50000)
SERVER = ("10.0.0.2", 4433)
ALPN = ["game"]


def certificate():
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "game.test")])
    start = datetime.datetime(2026, 1, 1)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(1).not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650))
            .sign(key, hashes.SHA256()))
    return cert, key


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(src, dst, payload, ident):
    """Ethernet, IPv4 and UDP headers with correct checksums around a datagram."""
    sip, dip = (bytes(int(x) for x in a[0].split(".")) for a in (src, dst))
    udp_len = 8 + len(payload)
    pseudo = sip + dip + struct.pack("!BBH", 0, 17, udp_len)
    udp = struct.pack("!HHHH", src[1], dst[1], udp_len, 0)
    udp = udp[:6] + struct.pack("!H", checksum(pseudo + udp + payload) or 0xFFFF)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, ident & 0xFFFF, 0x4000, 64, 17, 0, sip, dip)
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    eth = bytes.fromhex("020000000002" "020000000001") + b"\x08\x00"
    return eth + ip + udp + payload


class Pcap:
    """Records sorted by capture time when written: the server's datagrams are
    seen a path delay after they were sent."""

    def __init__(self, path, t0_s):
        self.path, self.t0_ns, self.records = path, t0_s * 10**9, []

    def ns(self, t):
        return self.t0_ns + int(round(t * 1e9))

    def add(self, t, src, dst, payload):
        self.records.append((self.ns(t), len(self.records), src, dst, payload))

    def write(self):
        with open(self.path, "wb") as f:
            f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))  # nanosecond pcap, Ethernet
            for ident, (ns, _, src, dst, payload) in enumerate(sorted(self.records), 1):
                data = frame(src, dst, payload, ident)
                f.write(struct.pack("<IIII", ns // 10**9, ns % 10**9, len(data), len(data)) + data)


def short_header(datagram):
    """Whether the datagram holds a 1-RTT packet (a coalesced one comes last)."""
    i = 0
    while i < len(datagram):
        if not datagram[i] & 0x80:
            return True
        # A long header: skip it by its Length (RFC 9000 17.2).
        j = i + 5
        j += 1 + datagram[j]
        j += 1 + datagram[j]
        ptype = (datagram[i] & 0x30) >> 4
        if ptype == 0:  # Initial: token
            n, j = varint(datagram, j)
            j += n
        n, j = varint(datagram, j)
        i = j + n
    return False


def varint(b, i):
    n = 1 << (b[i] >> 6)
    v = b[i] & 0x3F
    for k in range(1, n):
        v = (v << 8) | b[i + k]
    return v, i + n


class Side:
    def __init__(self, name, conn, addr, peer):
        self.name, self.conn, self.addr, self.peer = name, conn, addr, peer
        self.sent = self.dropped = 0
        self.last_spin = None
        self.edges = []  # capture times of this side's spin edges, as the client's capture sees them


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--delay-ms", type=float, default=40)
    ap.add_argument("--loss", type=float, default=5, help="percent, each direction")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    delay = a.delay_ms / 1000

    cert, key = certificate()
    keylog = open(os.path.join(a.out, "client.keylog"), "w")
    ccfg = QuicConfiguration(is_client=True, alpn_protocols=ALPN, max_datagram_frame_size=65536,
                             secrets_log_file=keylog, server_name="game.test")
    ccfg.verify_mode = ssl.CERT_NONE  # a self-signed test certificate
    scfg = QuicConfiguration(is_client=False, alpn_protocols=ALPN, max_datagram_frame_size=65536,
                             certificate=cert, private_key=key)
    client = Side("client", QuicConnection(configuration=ccfg), CLIENT, SERVER)
    # The server's connection is made at the client's first Initial, as
    # aioquic's own server does: it needs the destination connection id.
    server = Side("server", None, SERVER, CLIENT)
    # 2026-12-06 00:00 UTC: capture times are this plus the virtual clock.
    pcap = Pcap(os.path.join(a.out, "client.pcap"), 1796601600)
    wire = []  # (arrival, order, side, datagram)
    order = 0
    now = 0.0
    client.conn.connect(SERVER, now=now)
    server_conn_ready = False
    next_input, next_event, next_state = 0.0, 0.0, 0.0
    inputs = events_sent = states = echoes = 0

    def flush(side, now):
        nonlocal order
        if side.conn is None:
            return
        for data, _ in side.conn.datagrams_to_send(now=now):
            side.sent += 1
            short = short_header(data)
            spin = side.conn._spin_bit  # the value every 1-RTT packet of this call carries
            dropped = rng.random() < a.loss / 100
            seen_at = now if side is client else now + delay
            if side is client or not dropped:
                pcap.add(seen_at, side.addr, side.peer, data)
                if short:
                    if side.last_spin is not None and spin != side.last_spin:
                        side.edges.append(pcap.ns(seen_at))
                    side.last_spin = spin
            if dropped:
                side.dropped += 1
                continue
            order += 1
            heapq.heappush(wire, (now + delay, order, "server" if side is client else "client", data))

    while now <= a.seconds:
        flush(client, now)
        flush(server, now)
        sides = [s for s in (client, server) if s.conn is not None]
        timers = [t for t in (s.conn.get_timer() for s in sides) if t is not None]
        candidates = timers + [next_input, next_event, next_state] + ([wire[0][0]] if wire else [])
        now = max(now, min(candidates))
        while wire and wire[0][0] <= now:
            _, _, to, data = heapq.heappop(wire)
            side = server if to == "server" else client
            if side.conn is None:
                odcid = pull_quic_header(Buffer(data=data), host_cid_length=8).destination_cid
                side.conn = QuicConnection(configuration=scfg, original_destination_connection_id=odcid)
            side.conn.receive_datagram(data, side.peer, now=now)
        sides = [s for s in (client, server) if s.conn is not None]
        for side in sides:
            t = side.conn.get_timer()
            if t is not None and t <= now:
                side.conn.handle_timer(now=now)
        for side in sides:
            while (ev := side.conn.next_event()) is not None:
                if isinstance(ev, events.HandshakeCompleted) and side is server:
                    server_conn_ready = True
                if isinstance(ev, events.StreamDataReceived) and side is server and ev.data:
                    side.conn.send_stream_data(ev.stream_id, ev.data)
                    echoes += 1
        ready = client.conn._handshake_complete and server_conn_ready
        if now >= next_input:
            next_input += 1 / 60
            if ready:
                inputs += 1
                client.conn.send_datagram_frame(struct.pack("!I", inputs) + bytes(16))
        if now >= next_event:
            next_event += 0.1
            if ready:
                events_sent += 1
                client.conn.send_stream_data(0, struct.pack("!I", events_sent) + bytes(26))
        if now >= next_state:
            next_state += 0.05
            if ready:
                states += 1
                server.conn.send_datagram_frame(struct.pack("!I", states) + bytes(196))
    flush(client, now)  # what the last turn queued
    flush(server, now)
    pcap.write()
    keylog.close()
    truth = {
        "implementation": "aioquic 1.7.2 (sans-I/O, virtual clock)",
        "delay_ms": a.delay_ms, "loss_percent": a.loss, "seconds": a.seconds, "seed": a.seed,
        "path_rtt_ms": 2 * a.delay_ms,
        "client": {"datagrams_sent": client.sent, "dropped": client.dropped, "inputs": inputs,
                   "events": events_sent, "spin_edges_ns": client.edges},
        "server": {"datagrams_sent": server.sent, "dropped": server.dropped, "states": states, "echoes": echoes,
                   "spin_edges_ns": server.edges},
    }
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
