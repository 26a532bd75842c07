#!/usr/bin/env python3
"""TCP side of the kcptun lab (lab.sh --proto kcptun): a game-like client
that writes through kcptun-client, and an echo server behind kcptun-server.

  tcp_game.py server PORT
  tcp_game.py client HOST PORT DURATION_S SEED

The client writes a 20..120-byte message at 30 Hz and a 4096-byte one every
0.8..1.6 s, reads the echoes, and after DURATION_S waits up to 3 s for the
last echo; it prints {"sent_bytes", "echoed_bytes", "messages", "bursts"}.
"""
import json
import random
import socket
import sys
import threading
import time


def server(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", port))
    ls.listen(4)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=echo, args=(c,), daemon=True).start()


def echo(c):
    with c:
        while True:
            b = c.recv(65536)
            if not b:
                return
            c.sendall(b)


def client(host, port, duration, seed):
    rng = random.Random(seed)
    s = socket.create_connection((host, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    got = [0]

    def reader():
        while True:
            b = s.recv(65536)
            if not b:
                return
            got[0] += len(b)

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    sent = msgs = bursts = 0
    start = time.monotonic()
    nxt = start
    next_burst = start + rng.uniform(0.8, 1.6)
    while time.monotonic() - start < duration:
        now = time.monotonic()
        if now >= nxt:
            n = rng.randint(20, 120)
            s.sendall(bytes([65 + msgs % 26]) * n)
            sent += n
            msgs += 1
            if now >= next_burst:
                s.sendall(b"B" * 4096)
                sent += 4096
                bursts += 1
                next_burst = now + rng.uniform(0.8, 1.6)
            nxt += 1 / 30
        time.sleep(max(0.0, nxt - time.monotonic()))
    end = time.monotonic() + 3
    while got[0] < sent and time.monotonic() < end:
        time.sleep(0.05)
    print(json.dumps({"sent_bytes": sent, "echoed_bytes": got[0], "messages": msgs, "bursts": bursts}))
    sys.stdout.flush()
    s.close()


if __name__ == "__main__":
    if sys.argv[1] == "server":
        server(int(sys.argv[2]))
    else:
        client(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]))
