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

--scenario frames is a short run made to carry the QUIC frames the game
workload never sends (see Frames): small flow-control windows and stream
limits (MAX_DATA, MAX_STREAM_DATA, MAX_STREAMS, DATA_BLOCKED,
STREAM_DATA_BLOCKED, STREAMS_BLOCKED), streams of all four kinds with FIN,
RESET_STREAM and STOP_SENDING both ways, a NAT rebinding of the client
(its source port changes mid-connection, the server validates the new path
with PATH_CHALLENGE / PATH_RESPONSE) and a transport CONNECTION_CLOSE (0x1c).
Its bytes are deterministic too (seeded randomness for aioquic, an Ed25519
certificate), so a regeneration is byte-identical:

    PYTHONPATH=DIR_WITH_AIOQUIC aioquic_capture.py OUT --scenario frames --delay-ms 20 --loss 0 --seconds 1 --seed 1

Its truth.json adds the frames each side sent (counted by wire type as
aioquic's packet builder started them; PADDING is not counted, the builder
pads without starting a frame), the rebinding, the streams and the command.
"""
import argparse
import collections
import datetime
import heapq
import json
import math
import os
import random
import shlex
import ssl
import struct
import sys
import types

import aioquic.quic.connection
import aioquic.quic.stream
import aioquic.tls
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.connection import QuicConnection
from aioquic.buffer import Buffer, UINT_VAR_MAX_SIZE
from aioquic.quic import events
from aioquic.quic.packet import QuicErrorCode, QuicFrameType, pull_quic_header
from aioquic.quic.packet_builder import QuicDeliveryState, QuicPacketBuilder
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, x448, x25519
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


class Game:
    """The default workload: 60 Hz inputs and a reliable event every 100 ms
    from the client, 20 Hz state from the server, each event echoed."""

    def __init__(self, a):
        self.next_input, self.next_event, self.next_state = 0.0, 0.0, 0.0
        self.inputs = self.events_sent = self.states = self.echoes = 0

    def times(self):
        return [self.next_input, self.next_event, self.next_state]

    def on_event(self, side, ev, now, client, server):
        if isinstance(ev, events.StreamDataReceived) and side is server and ev.data:
            side.conn.send_stream_data(ev.stream_id, ev.data)
            self.echoes += 1

    def act(self, now, ready, client, server):
        if now >= self.next_input:
            self.next_input += 1 / 60
            if ready:
                self.inputs += 1
                client.conn.send_datagram_frame(struct.pack("!I", self.inputs) + bytes(16))
        if now >= self.next_event:
            self.next_event += 0.1
            if ready:
                self.events_sent += 1
                client.conn.send_stream_data(0, struct.pack("!I", self.events_sent) + bytes(26))
        if now >= self.next_state:
            self.next_state += 0.05
            if ready:
                self.states += 1
                server.conn.send_datagram_frame(struct.pack("!I", self.states) + bytes(196))

    def truth(self, truth):
        truth["client"]["inputs"] = self.inputs
        truth["client"]["events"] = self.events_sent
        truth["server"]["states"] = self.states
        truth["server"]["echoes"] = self.echoes


# --scenario frames ----------------------------------------------------------

FRAME_NAMES = {
    0x00: "PADDING", 0x01: "PING", 0x02: "ACK", 0x03: "ACK_ECN", 0x04: "RESET_STREAM", 0x05: "STOP_SENDING",
    0x06: "CRYPTO", 0x07: "NEW_TOKEN", 0x08: "STREAM", 0x09: "STREAM+FIN", 0x0A: "STREAM+LEN",
    0x0B: "STREAM+LEN+FIN", 0x0C: "STREAM+OFF", 0x0D: "STREAM+OFF+FIN", 0x0E: "STREAM+OFF+LEN",
    0x0F: "STREAM+OFF+LEN+FIN", 0x10: "MAX_DATA", 0x11: "MAX_STREAM_DATA", 0x12: "MAX_STREAMS(bidi)",
    0x13: "MAX_STREAMS(uni)", 0x14: "DATA_BLOCKED", 0x15: "STREAM_DATA_BLOCKED", 0x16: "STREAMS_BLOCKED(bidi)",
    0x17: "STREAMS_BLOCKED(uni)", 0x18: "NEW_CONNECTION_ID", 0x19: "RETIRE_CONNECTION_ID",
    0x1A: "PATH_CHALLENGE", 0x1B: "PATH_RESPONSE", 0x1C: "CONNECTION_CLOSE(transport)",
    0x1D: "CONNECTION_CLOSE(application)", 0x1E: "HANDSHAKE_DONE", 0x30: "DATAGRAM", 0x31: "DATAGRAM+LEN",
}

FRAMES_SENT = {True: collections.Counter(), False: collections.Counter()}  # by is_client


class CountingBuilder(QuicPacketBuilder):
    """aioquic's packet builder, counting each frame it starts by wire type
    (once start_frame returns, the frame is in a packet that is sent)."""

    def __init__(self, *args, is_client, **kwargs):
        super().__init__(*args, is_client=is_client, **kwargs)
        self.counts = FRAMES_SENT[is_client]

    def start_frame(self, frame_type, *args, **kwargs):
        buf = super().start_frame(frame_type, *args, **kwargs)
        self.counts[int(frame_type)] += 1
        return buf


class FramesConnection(QuicConnection):
    """aioquic 1.7.2 parses DATA_BLOCKED and STREAM_DATA_BLOCKED but never
    writes them. This sends each once per peer limit it is blocked at (RFC
    9000 section 4.1), in the 1-RTT packets aioquic builds, next to its own
    MAX_DATA and MAX_STREAM_DATA, again if the packet is lost."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._data_blocked_sent = None
        self._stream_data_blocked_sent = {}

    @staticmethod
    def _unsent(stream):
        sender = stream.sender
        return sender._reset_error_code is None and sender._buffer_stop > sender.highest_offset

    def _write_connection_limits(self, builder, space):
        super()._write_connection_limits(builder=builder, space=space)
        limit = self._remote_max_data
        if (self._remote_max_data_used >= limit and self._data_blocked_sent != limit
                and any(not s.is_blocked and self._unsent(s) for s in self._streams.values())):
            buf = builder.start_frame(QuicFrameType.DATA_BLOCKED, capacity=1 + UINT_VAR_MAX_SIZE,
                                      handler=self._on_data_blocked_delivery, handler_args=(limit,))
            buf.push_uint_var(limit)
            self._data_blocked_sent = limit

    def _on_data_blocked_delivery(self, delivery, limit):
        if delivery != QuicDeliveryState.ACKED and self._data_blocked_sent == limit:
            self._data_blocked_sent = None

    def _write_stream_limits(self, builder, space, stream):
        super()._write_stream_limits(builder=builder, space=space, stream=stream)
        limit = stream.max_stream_data_remote
        if (self._unsent(stream) and not stream.is_blocked and stream.sender.highest_offset >= limit
                and self._stream_data_blocked_sent.get(stream.stream_id) != limit):
            buf = builder.start_frame(QuicFrameType.STREAM_DATA_BLOCKED, capacity=1 + 2 * UINT_VAR_MAX_SIZE,
                                      handler=self._on_stream_data_blocked_delivery,
                                      handler_args=(stream.stream_id, limit))
            buf.push_uint_var(stream.stream_id)
            buf.push_uint_var(limit)
            self._stream_data_blocked_sent[stream.stream_id] = limit

    def _on_stream_data_blocked_delivery(self, delivery, stream_id, limit):
        if delivery != QuicDeliveryState.ACKED and self._stream_data_blocked_sent.get(stream_id) == limit:
            del self._stream_data_blocked_sent[stream_id]


def deterministic_aioquic(seed):
    """Seeded randomness for everything aioquic draws (connection ids, TLS
    randoms, key shares, path challenges) and a stream order that does not
    depend on memory addresses: the frames run is byte-identical from one
    regeneration to the next. With the Ed25519 certificate (deterministic
    signatures) nothing random is left."""
    rnd = random.Random(f"aioquic-bytes-{seed}")
    os.urandom = rnd.randbytes
    aioquic.tls.x25519 = types.SimpleNamespace(
        X25519PublicKey=x25519.X25519PublicKey,
        X25519PrivateKey=types.SimpleNamespace(
            generate=lambda: x25519.X25519PrivateKey.from_private_bytes(rnd.randbytes(32))))
    aioquic.tls.x448 = types.SimpleNamespace(
        X448PublicKey=x448.X448PublicKey,
        X448PrivateKey=types.SimpleNamespace(
            generate=lambda: x448.X448PrivateKey.from_private_bytes(rnd.randbytes(56))))
    ec_shim = types.SimpleNamespace(**{k: getattr(ec, k) for k in dir(ec) if not k.startswith("__")})
    ec_shim.generate_private_key = lambda curve: ec.derive_private_key(
        rnd.getrandbits(curve.key_size - 1) | 1, curve)
    aioquic.tls.ec = ec_shim
    # The streams sent in one packet are re-queued from a set: hash them by id.
    aioquic.quic.stream.QuicStream.__hash__ = lambda stream: hash(stream.stream_id)
    aioquic.quic.connection.QuicPacketBuilder = CountingBuilder
    cert_key = ed25519.Ed25519PrivateKey.from_private_bytes(rnd.randbytes(32))
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "game.test")])
    start = datetime.datetime(2026, 1, 1)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(cert_key.public_key())
            .serial_number(1).not_valid_before(start).not_valid_after(start + datetime.timedelta(days=3650))
            .sign(cert_key, None))
    return cert, cert_key


def blob(stream_id, n):
    """n bytes of recognizable stream content."""
    unit = f"stream {stream_id} ".encode()
    return (unit * (n // len(unit) + 1))[:n]


class Frames:
    """The frames workload. Flow-control windows of 4 KB per stream and 8 KB
    per connection on both sides (aioquic doubles a window once half of it is
    used: MAX_STREAM_DATA, MAX_DATA; the sender blocked at a limit sends
    DATA_BLOCKED / STREAM_DATA_BLOCKED), and the server lets the client open
    2 bidirectional and 2 unidirectional streams at first (STREAMS_BLOCKED,
    then MAX_STREAMS as the client's streams finish). At the start:

    - client bidi 0: 24000 bytes + FIN, echoed by the server with FIN;
    - client uni 2: 16000 bytes + FIN;
    - client bidi 4: 32000 bytes, echoed; once 8000 bytes of echo are back the
      client resets it (RESET_STREAM 0x104), the server resets its side too;
    - client uni 6: 32000 bytes + FIN; after 8000 bytes the server stops it
      (STOP_SENDING 0x106), the client answers with RESET_STREAM;
    - client bidi 8 and uni 10: 1000 bytes + FIN each, over the stream limit
      (STREAMS_BLOCKED bidi and uni) until MAX_STREAMS lets them go;
    - server bidi 1: 12000 bytes + FIN, the client answers 4 bytes + FIN;
    - server uni 3: 32000 bytes; after 8000 bytes the client stops it
      (STOP_SENDING 0x103), the server answers with RESET_STREAM.

    At --rebind-at the client's source port changes (NAT rebinding) for the
    rest of the run; the server's datagrams already on their way to the old
    port still arrive (the NAT keeps the old mapping a little while). At
    --close-at the client closes with a transport CONNECTION_CLOSE (0x1c):
    PROTOCOL_VIOLATION, frame type STREAM (0x08), a reason phrase."""

    MAX_DATA, MAX_STREAM_DATA, PEER_STREAMS = 8192, 4096, 2
    CLOSE = dict(error_code=QuicErrorCode.PROTOCOL_VIOLATION, frame_type=QuicFrameType.STREAM_BASE,
                 reason_phrase="frames scenario: done")

    def __init__(self, a):
        self.rebind_at, self.close_at, self.new_port = a.rebind_at, a.close_at, a.rebind_port
        self.started = self.rebound = self.closed = False
        self.received = {"client": collections.Counter(), "server": collections.Counter()}
        self.fins = {"client": [], "server": []}
        self.resets = {"client": [], "server": []}  # RESET_STREAM received: [stream, error code]
        self.stops = {"client": [], "server": []}  # STOP_SENDING received: [stream, error code]
        self.streams = {}
        self.rebinding = {}
        self.terminated = {}
        self.server_reset = set()

    @staticmethod
    def configure(ccfg, scfg):
        for cfg in (ccfg, scfg):
            cfg.max_data, cfg.max_stream_data = Frames.MAX_DATA, Frames.MAX_STREAM_DATA

    @staticmethod
    def server_created(conn):
        # Before the server's transport parameters are written (at the first Initial).
        conn._local_max_streams_bidi.value = conn._local_max_streams_bidi.sent = Frames.PEER_STREAMS
        conn._local_max_streams_uni.value = conn._local_max_streams_uni.sent = Frames.PEER_STREAMS

    def times(self):
        return [t for t, done in ((self.rebind_at, self.rebound), (self.close_at, self.closed)) if not done]

    def open(self, conn, who, uni, size, fin):
        stream_id = conn.get_next_available_stream_id(is_unidirectional=uni)
        conn.send_stream_data(stream_id, blob(stream_id, size), end_stream=fin)
        self.streams[stream_id] = {"opened_by": who, "unidirectional": uni, "bytes": size, "fin": fin}
        return stream_id

    def on_event(self, side, ev, now, client, server):
        conn, name = side.conn, side.name
        if isinstance(ev, events.StreamDataReceived):
            sid = ev.stream_id
            self.received[name][sid] += len(ev.data)
            if ev.end_stream:
                self.fins[name].append(sid)
            if side is server:
                if sid % 4 == 0 and sid not in self.server_reset and (ev.data or ev.end_stream):
                    conn.send_stream_data(sid, ev.data, end_stream=ev.end_stream)  # echo
                if sid == 6 and self.received[name][6] >= 8000 and not self.streams[6].get("stopped"):
                    conn.stop_stream(6, 0x106)
                    self.streams[6]["stopped"] = 0x106
            else:
                if sid == 3 and self.received[name][3] >= 8000 and not self.streams[3].get("stopped"):
                    conn.stop_stream(3, 0x103)
                    self.streams[3]["stopped"] = 0x103
                if sid == 4 and self.received[name][4] >= 8000 and not self.streams[4].get("reset"):
                    conn.reset_stream(4, 0x104)
                    self.streams[4]["reset"] = 0x104
                if sid == 1 and ev.end_stream:
                    conn.send_stream_data(1, b"done", end_stream=True)
        elif isinstance(ev, events.StreamReset):
            self.resets[name].append([ev.stream_id, ev.error_code])
            if side is server and ev.stream_id % 4 == 0:  # stop echoing a reset stream: reset it too
                conn.reset_stream(ev.stream_id, ev.error_code)
                self.server_reset.add(ev.stream_id)
        elif isinstance(ev, events.StopSendingReceived):
            self.stops[name].append([ev.stream_id, ev.error_code])
        elif isinstance(ev, events.ConnectionTerminated):
            self.terminated[name] = {"at_s": now, "error_code": ev.error_code, "frame_type": ev.frame_type,
                                     "reason_phrase": ev.reason_phrase}

    def act(self, now, ready, client, server):
        if ready and not self.started:
            self.started = now
            c, s = client.conn, server.conn
            assert self.open(c, "client", False, 24000, True) == 0
            assert self.open(c, "client", True, 16000, True) == 2
            assert self.open(c, "client", False, 32000, False) == 4
            assert self.open(c, "client", True, 32000, True) == 6
            assert self.open(c, "client", False, 1000, True) == 8
            assert self.open(c, "client", True, 1000, True) == 10
            assert self.open(s, "server", False, 12000, True) == 1
            assert self.open(s, "server", True, 32000, False) == 3
        if now >= self.rebind_at and not self.rebound:
            self.rebound = True
            old = client.addr
            client.addr = (old[0], self.new_port)
            self.rebinding = {"at_s": now, "old_port": old[1], "new_port": self.new_port}
        if now >= self.close_at and not self.closed:
            self.closed = True
            client.conn.close(**self.CLOSE)
            self.closing_at = now

    def truth(self, truth):
        truth["scenario"] = "frames"
        truth["flow_control"] = {"max_data": self.MAX_DATA, "max_stream_data": self.MAX_STREAM_DATA,
                                 "server_initial_max_streams_bidi": self.PEER_STREAMS,
                                 "server_initial_max_streams_uni": self.PEER_STREAMS}
        truth["workload_started_s"] = self.started
        truth["streams"] = {str(k): v for k, v in sorted(self.streams.items())}
        truth["rebinding"] = self.rebinding
        truth["close"] = {"by": "client", "at_s": self.closing_at, "frame": "0x1c",
                          "error_code": int(self.CLOSE["error_code"]), "frame_type": int(self.CLOSE["frame_type"]),
                          "reason_phrase": self.CLOSE["reason_phrase"]}
        for name, is_client in (("client", True), ("server", False)):
            side = truth[name]
            side["frames_sent"] = {f"0x{t:02x} {FRAME_NAMES.get(t, '?')}": n
                                   for t, n in sorted(FRAMES_SENT[is_client].items())}
            side["stream_bytes_received"] = {str(k): v for k, v in sorted(self.received[name].items())}
            side["fin_received"] = sorted(self.fins[name])
            side["reset_stream_received"] = sorted(self.resets[name])
            side["stop_sending_received"] = sorted(self.stops[name])
            if name in self.terminated:
                side["terminated"] = self.terminated[name]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--scenario", choices=["game", "frames"], default="game")
    ap.add_argument("--delay-ms", type=float, default=40)
    ap.add_argument("--loss", type=float, default=5, help="percent, each direction")
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rebind-at", type=float, default=0.2, help="frames: when the client's port changes (s)")
    ap.add_argument("--rebind-port", type=int, default=50001, help="frames: the client's port after it")
    ap.add_argument("--close-at", type=float, default=0.6, help="frames: when the client closes (s)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    delay = a.delay_ms / 1000
    frames = a.scenario == "frames"

    cert, key = deterministic_aioquic(a.seed) if frames else certificate()
    keylog = open(os.path.join(a.out, "client.keylog"), "w")
    ccfg = QuicConfiguration(is_client=True, alpn_protocols=ALPN, max_datagram_frame_size=65536,
                             secrets_log_file=keylog, server_name="game.test")
    ccfg.verify_mode = ssl.CERT_NONE  # a self-signed test certificate
    scfg = QuicConfiguration(is_client=False, alpn_protocols=ALPN, max_datagram_frame_size=65536,
                             certificate=cert, private_key=key)
    workload = Frames(a) if frames else Game(a)
    Connection = FramesConnection if frames else QuicConnection
    if frames:
        Frames.configure(ccfg, scfg)
    client = Side("client", Connection(configuration=ccfg), CLIENT, SERVER)
    # The server's connection is made at the client's first Initial, as
    # aioquic's own server does: it needs the destination connection id.
    server = Side("server", None, SERVER, CLIENT)
    # 2026-12-06 00:00 UTC: capture times are this plus the virtual clock.
    pcap = Pcap(os.path.join(a.out, "client.pcap"), 1796601600)
    wire = []  # (arrival, order, side, source address, datagram)
    order = 0
    now = 0.0
    client.conn.connect(SERVER, now=now)
    server_conn_ready = False
    client_first_new_port = None  # capture time of the client's first datagram from its new port
    to_old_port = 0  # the server's datagrams to the client's old port after the rebinding

    def flush(side, now):
        nonlocal order, client_first_new_port, to_old_port
        if side.conn is None:
            return
        for data, addr in side.conn.datagrams_to_send(now=now):
            side.sent += 1
            short = short_header(data)
            spin = side.conn._spin_bit  # the value every 1-RTT packet of this call carries
            dropped = rng.random() < a.loss / 100
            seen_at = now if side is client else now + delay
            # The client sends from its current address; the server to the one
            # aioquic chose (the client's new one once it saw it).
            src, dst = (client.addr, SERVER) if side is client else (SERVER, addr)
            if side is client and src != CLIENT and client_first_new_port is None:
                client_first_new_port = pcap.ns(seen_at)
            if side is server and dst != client.addr:
                to_old_port += 1
            if side is client or not dropped:
                pcap.add(seen_at, src, dst, data)
                if short:
                    if side.last_spin is not None and spin != side.last_spin:
                        side.edges.append(pcap.ns(seen_at))
                    side.last_spin = spin
            if dropped:
                side.dropped += 1
                continue
            order += 1
            heapq.heappush(wire, (now + delay, order, "server" if side is client else "client", src, data))

    server_validated = None
    turns_now = 0  # turns of the loop without the clock moving
    while now <= a.seconds:
        flush(client, now)
        flush(server, now)
        sides = [s for s in (client, server) if s.conn is not None]
        timers = [t for t in (s.conn.get_timer() for s in sides) if t is not None]
        candidates = timers + workload.times() + ([wire[0][0]] if wire else [])
        if not candidates:  # both ends closed, nothing on the wire
            break
        due = min(candidates)
        turns_now = turns_now + 1 if due <= now else 0
        if turns_now > 100:
            # aioquic's time threshold (sent_time <= now - loss_delay) can miss,
            # by a rounding, a loss due exactly now and re-arm its timer at now,
            # which a real clock gets past: let the virtual one tick too.
            due, turns_now = math.nextafter(now, math.inf), 0
        now = max(now, due)
        while wire and wire[0][0] <= now:
            _, _, to, src, data = heapq.heappop(wire)
            side = server if to == "server" else client
            if side.conn is None:
                odcid = pull_quic_header(Buffer(data=data), host_cid_length=8).destination_cid
                side.conn = Connection(configuration=scfg, original_destination_connection_id=odcid)
                if frames:
                    Frames.server_created(side.conn)
            side.conn.receive_datagram(data, src, now=now)
            if (side is server and server_validated is None and src != CLIENT
                    and any(p.addr == src and p.is_validated for p in side.conn._network_paths)):
                server_validated = now
        sides = [s for s in (client, server) if s.conn is not None]
        for side in sides:
            t = side.conn.get_timer()
            if t is not None and t <= now:
                side.conn.handle_timer(now=now)
        for side in sides:
            while (ev := side.conn.next_event()) is not None:
                if isinstance(ev, events.HandshakeCompleted) and side is server:
                    server_conn_ready = True
                workload.on_event(side, ev, now, client, server)
        ready = client.conn._handshake_complete and server_conn_ready
        workload.act(now, ready, client, server)
    flush(client, now)  # what the last turn queued
    flush(server, now)
    pcap.write()
    keylog.close()

    def number(x):  # 40, not 40.0, as the committed runs have it
        return int(x) if float(x).is_integer() else x

    truth = {
        "implementation": "aioquic 1.7.2 (sans-I/O, virtual clock)",
        "delay_ms": number(a.delay_ms), "loss_percent": number(a.loss), "seconds": a.seconds, "seed": a.seed,
        "path_rtt_ms": number(2 * a.delay_ms),
        "client": {"datagrams_sent": client.sent, "dropped": client.dropped},
        "server": {"datagrams_sent": server.sent, "dropped": server.dropped},
    }
    workload.truth(truth)
    truth["client"]["spin_edges_ns"] = client.edges
    truth["server"]["spin_edges_ns"] = server.edges
    if frames:
        # The command line, with the output directory as OUT.
        args = ["OUT" if x == a.out else shlex.quote(x) for x in sys.argv[1:]]
        truth["command"] = " ".join(["PYTHONPATH=DIR_WITH_AIOQUIC", "tests/kcp_enet/aioquic_capture.py"] + args)
        truth["rebinding"].update({
            "at_ns": pcap.ns(truth["rebinding"]["at_s"]), "client_first_new_port_datagram_ns": client_first_new_port,
            "server_datagrams_to_old_port_after": to_old_port,
            "server_validated_new_path_s": server_validated})
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
