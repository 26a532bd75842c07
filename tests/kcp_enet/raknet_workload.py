#!/usr/bin/env python3
"""A game-like RakNet 4 client or server on the real library (PyPI `raknet`
0.3.0, which bundles RakNet's C++ sources), for tests/kcp_enet/lab.sh.

  raknet_workload.py server PORT SECONDS SEED MESSAGES.jsonl
  raknet_workload.py client HOST PORT SECONDS SEED MESSAGES.jsonl

Streams (both directions, as a game sends them):
  server -> client  20 Hz UNRELIABLE_SEQUENCED snapshots (ch 0, 120-300 B),
                    RELIABLE_ORDERED events (ch 1, ~4/s, 20-80 B),
                    a RELIABLE_ORDERED blob of 3-6 KB (ch 2, split) every 2-3.5 s
  client -> server  30 Hz RELIABLE inputs (20-40 B),
                    RELIABLE_ORDERED events (ch 1, ~2/s),
                    a RELIABLE_ORDERED blob every 3-5 s (ch 2)
Every message starts with an id byte (134 + kind), its direction's message
number (u32) and CLOCK_MONOTONIC at sending (f64 s): the receiver logs the
one-way time of each. MESSAGES.jsonl gets one line per message sent or
received: {"t": monotonic s, "ev": "send"|"recv", "kind", "n", "bytes"
[, "sent_t"]}. Prints one JSON object of counters on stdout at the end.
The binding exposes no RakNet statistics, so the lab's truth is this log
and the router's drop counters.
"""
import json
import random
import struct
import sys
import time

import raknet

KINDS = {"snapshot": 0, "input": 1, "event": 2, "blob": 3}
KIND_NAMES = {v: k for k, v in KINDS.items()}
R = raknet.PacketReliability
P = raknet.PacketPriority
M = raknet.MessageIdentifiers
HEADER = struct.Struct("<BId")  # id byte, message number, sent time


class Side:
    def __init__(self, role, seed, log_path):
        self.role = role
        self.rng = random.Random(seed * 2 + (role == "server"))
        self.log = open(log_path, "w")
        self.peer = raknet.RakPeer()
        self.addr = None
        self.number = 0
        self.sent = {k: 0 for k in KINDS}
        self.recv = {k: 0 for k in KINDS}
        self.recv_bad = 0
        self.connected_at = None
        self.lost_connection = False

    def send(self, kind, size, reliability, channel):
        now = time.monotonic()
        self.number += 1
        body = HEADER.pack(134 + KINDS[kind], self.number, now)
        body += bytes(self.rng.randrange(256) for _ in range(max(0, size - len(body))))
        self.peer.send(body, P.HIGH_PRIORITY, reliability, channel, self.addr)
        self.sent[kind] += 1
        self.log.write(json.dumps({"t": now, "ev": "send", "kind": kind, "n": self.number,
                                   "bytes": len(body)}) + "\n")

    def poll(self):
        while True:
            p = self.peer.receive()
            if p is None:
                return
            data = p.data
            ident = data[0]
            if ident in (M.ID_CONNECTION_REQUEST_ACCEPTED, M.ID_NEW_INCOMING_CONNECTION):
                self.addr = p.system_address
                self.connected_at = time.monotonic()
            elif ident in (M.ID_CONNECTION_LOST, M.ID_DISCONNECTION_NOTIFICATION):
                self.lost_connection = ident == M.ID_CONNECTION_LOST
                self.addr = None
            elif 134 <= ident < 134 + len(KINDS) and len(data) >= HEADER.size:
                _, number, sent_t = HEADER.unpack_from(data)
                kind = KIND_NAMES[ident - 134]
                self.recv[kind] += 1
                self.log.write(json.dumps({"t": time.monotonic(), "ev": "recv", "kind": kind, "n": number,
                                           "bytes": len(data), "sent_t": sent_t}) + "\n")
            elif ident >= 134:
                self.recv_bad += 1


def schedule(rng, now, lo, hi):
    return now + rng.uniform(lo, hi)


def run(side, seconds, drain=0.0):
    """Sends for `seconds`, then only receives for `drain` more seconds."""
    rng = side.rng
    server = side.role == "server"
    tick = 1 / 20 if server else 1 / 30
    start = time.monotonic()
    next_tick = start
    next_event = schedule(rng, start, 0.1, 0.4 if server else 0.8)
    next_blob = schedule(rng, start, 2.0 if server else 3.0, 3.5 if server else 5.0)
    while time.monotonic() - start < seconds + drain:
        side.poll()
        now = time.monotonic()
        if side.addr is not None and now - start < seconds:
            if now >= next_tick:
                next_tick += tick
                if server:
                    side.send("snapshot", rng.randint(120, 300), R.UNRELIABLE_SEQUENCED, 0)
                else:
                    side.send("input", rng.randint(20, 40), R.RELIABLE, 0)
            if now >= next_event:
                next_event = schedule(rng, now, 0.1, 0.4 if server else 0.8)
                side.send("event", rng.randint(20, 80), R.RELIABLE_ORDERED, 1)
            if now >= next_blob:
                next_blob = schedule(rng, now, 2.0 if server else 3.0, 3.5 if server else 5.0)
                side.send("blob", rng.randint(3000, 6000), R.RELIABLE_ORDERED, 2)
        else:
            next_tick = now
        time.sleep(0.001)


def main(argv):
    role = argv[1] if len(argv) > 1 else ""
    if role == "server" and len(argv) == 6:
        port, seconds, seed, log_path = int(argv[2]), float(argv[3]), int(argv[4]), argv[5]
        side = Side(role, seed, log_path)
        side.peer.startup("0.0.0.0", port, 4)
        side.peer.max_incoming_connections = 4
        # Serve a little longer than the client runs, so its last messages
        # are acknowledged and its disconnection arrives; send nothing new
        # then (the client stops receiving 2 s after its own sending ends: a
        # message sent later could never be delivered).
        run(side, seconds, drain=3)
    elif role == "client" and len(argv) == 7:
        host, port, seconds, seed, log_path = argv[2], int(argv[3]), float(argv[4]), int(argv[5]), argv[6]
        side = Side(role, seed, log_path)
        side.peer.startup()
        side.peer.connect(host, port)
        run(side, seconds)
        # Let the last resends finish before disconnecting.
        end = time.monotonic() + 2
        while time.monotonic() < end:
            side.poll()
            time.sleep(0.001)
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    connected = side.connected_at is not None
    side.peer.shutdown(0.5)
    side.log.close()
    print(json.dumps({"role": role, "connected": connected, "lost_connection": side.lost_connection,
                      "app": {"sent": side.sent, "recv": side.recv, "recv_bad": side.recv_bad}}))
    return 0 if connected else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
