#!/usr/bin/env python3
"""A server-side capture of one game server and four players, analysed
without a dissector: the server is on a private address (a cloud VPC) and on
a port above its players', so the address and port rules alone would name it
the client of every flow. Three players open answered flows to it, so it is
the server of all four (the fourth player's flow included, whose first
packet in the capture is the server's), with the reason stored; a host that
only probes a player's port from five ports (never answered) changes
nothing.

Usage: many_peers.py RUDPSCOPE_CLI WORKDIR
"""
import json
import os
import struct
import subprocess
import sys

SERVER = ("10.1.1.1", 50000)
PLAYERS = [("203.0.113.%d" % (2 + i), 40001 + i) for i in range(4)]
PROBER = "198.51.100.7"


def ip_bytes(a):
    return bytes(int(x) for x in a.split("."))


def frame(src, dst, body):
    udp = struct.pack("!HHHH", src[1], dst[1], 8 + len(body), 0) + body
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0, ip_bytes(src[0]), ip_bytes(dst[0]))
    csum = sum(struct.unpack("!10H", ip))
    csum = (csum & 0xFFFF) + (csum >> 16)
    csum = (csum & 0xFFFF) + (csum >> 16)
    ip = ip[:10] + struct.pack("!H", ~csum & 0xFFFF) + ip[12:]
    return b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + ip + udp


def packets():
    out = []
    t = 1_000_000  # µs
    # The fourth player's flow was running before the capture: the server speaks first.
    for i, player in enumerate(PLAYERS):
        first, second = (SERVER, player) if i == 3 else (player, SERVER)
        for k in range(20):
            src, dst = (first, second) if k % 2 == 0 else (second, first)
            out.append((t, frame(src, dst, bytes([i, k]) * 20)))
            t += 16_000
    for port in range(60001, 60006):  # one-way probes of the first player's port
        out.append((t, frame((PROBER, port), PLAYERS[0], b"probe")))
        t += 1_000
    return out


def main():
    cli, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    pcap = os.path.join(work, "many_peers.pcap")
    with open(pcap, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for ts, data in packets():
            f.write(struct.pack("<IIII", ts // 1_000_000, ts % 1_000_000, len(data), len(data)) + data)
    out = subprocess.run([cli, "analyze", "-q", pcap, "--json", "--db", os.path.join(work, "many_peers.sqlite")],
                         check=True, capture_output=True, text=True).stdout
    conns = json.loads(out)["connections"]
    errors = []
    server = "%s:%d" % SERVER
    players = {"%s:%d" % p for p in PLAYERS}
    game = [c for c in conns if c["server"] == server or c["client"] == server]
    if len(game) != 4:
        errors.append(f"{len(game)} connections with the server, expected 4")
    for c in game:
        if c["server"] != server or c["client"] not in players:
            errors.append(f"connection {c['id']}: client {c['client']}, server {c['server']}; expected server {server}")
        if c["roles_reason"] != "many peers opened flows to it":
            errors.append(f"connection {c['id']}: roles_reason {c['roles_reason']!r}")
    probes = [c for c in conns if PROBER in c["client"] or PROBER in c["server"]]
    if len(probes) != 5 or any(c["roles_reason"] == "many peers opened flows to it" for c in probes):
        errors.append("the probes: " + ", ".join(f"{c['client']} -> {c['server']} ({c['roles_reason']})"
                                                 for c in probes))
    for e in errors:
        print("MISMATCH:", e)
    print(f"{len(game)} server connections, {len(probes)} probes checked: {'FAIL' if errors else 'PASS'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
