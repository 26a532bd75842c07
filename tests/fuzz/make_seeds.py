#!/usr/bin/env python3
"""Writes the seed corpora (tests/fuzz/seeds/<target>/) from the test captures.

    tests/fuzz/make_seeds.py GRUDP_SIM

GRUDP_SIM is build/dev/tests/sim/grudp-sim (for small simulated captures).
Deterministic; rerun after the test captures change. Seeds stay small
(tests/fuzz is kept under ~2 MB)."""
import hashlib, os, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "seeds")
LINK = os.path.join(ROOT, "tests", "data", "link")
# Must match kLinkTypes in fuzz_decode.cpp.
LINK_TYPES = [0, 1, 9, 12, 14, 50, 51, 101, 104, 105, 108, 113, 127, 228, 229, 276, 239, 258, 147]


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read_pcap(data):
    """(linktype, [(ts_sec, ts_frac, frame bytes)]) of a classic pcap."""
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        return None, []
    linktype = struct.unpack(e + "I", data[20:24])[0]
    off, frames = 24, []
    while off + 16 <= len(data):
        sec, frac, incl, _orig = struct.unpack(e + "IIII", data[off:off + 16])
        off += 16
        frames.append((sec, frac, data[off:off + incl]))
        off += incl
    return linktype, frames


def udp_payloads(linktype, frames):
    """UDP payloads of unfragmented IPv4/IPv6 frames (Ethernet or raw IP)."""
    out = []
    for _s, _f, fr in frames:
        off = 14 if linktype == 1 else 0
        if linktype == 1 and fr[12:14] != b"\x08\x00" and fr[12:14] != b"\x86\xdd":
            continue
        ip = fr[off:]
        if not ip:
            continue
        if ip[0] >> 4 == 4:
            ihl = (ip[0] & 15) * 4
            if ip[9] != 17 or struct.unpack(">H", ip[6:8])[0] & 0x3fff:
                continue
            udp = ip[ihl:]
        elif ip[0] >> 4 == 6 and ip[6] == 17:
            udp = ip[40:]
        else:
            continue
        if len(udp) >= 8:
            ulen = struct.unpack(">H", udp[4:6])[0]
            out.append((struct.unpack(">HH", udp[0:4]), udp[8:ulen]))
    return out


def decode_seed(linktype, frames):
    """The decode target's input: link-type selector, then (u16 len, u8 ts
    step, u8 origlen extra, bytes) per (bytes, extra) frame."""
    blob = bytes([LINK_TYPES.index(linktype)])
    for fr, extra in frames:
        blob += struct.pack("<HBB", len(fr), 1, extra) + fr
    return blob


def ip_edge_frames():
    """Raw IP frames (bytes, origlen extra) of the IP layer's edge cases: UDP
    in IPv6 fragments, out of order, interleaved and one lost; a first IPv4
    fragment shorter on the wire than its total length and one cut by the
    snap length; UDP after IPv4 AH."""
    a4, b4 = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])
    a6, b6 = bytes.fromhex("20010db8" + "00" * 11 + "01"), bytes.fromhex("20010db8" + "00" * 11 + "02")

    def udp(payload):
        return struct.pack(">HHHH", 50000, 7777, 8 + len(payload), 0) + payload

    def ipv4(proto, body, ident, frag=0x4000, total=0):
        return struct.pack(">BBHHHBBH4s4s", 0x45, 0, total or 20 + len(body), ident, frag, 64, proto, 0,
                           a4, b4) + body

    def ipv6_fragments(body, ident, size):
        out = []
        for off in range(0, len(body), size):
            piece = body[off:off + size]
            header = struct.pack(">BBHI", 17, 0, off | (off + size < len(body)), ident)
            out.append(struct.pack(">IHBB", 0x60000000, 8 + len(piece), 44, 64) + a6 + b6 + header + piece)
        return out

    big, small = udp(bytes(range(80))), udp(bytes(24))
    f1, f2, lost = (ipv6_fragments(big, 0x80000001, 32), ipv6_fragments(small, 0x80000002, 16),
                    ipv6_fragments(big, 0x80000003, 32))
    first = ipv4(17, big[:48], 5, 0x2000)
    ah = struct.pack(">BBHII", 17, 4, 0, 0x1000, 1) + b"\x11" * 12
    frames = [(f, 0) for f in f1[::-1] + [f2[0], lost[0], f2[1], lost[2]]]
    return frames + [(first[:60], 0), (first[:60], 8), (ipv4(51, ah + small, 6), 0)]


def icmp_error_frames():
    """Raw IP frames of ICMP and ICMPv6 errors quoting a datagram: TTL
    exceeded quoting IPv4 UDP's header and 8 bytes, host unreachable quoting a
    whole TCP header, ICMPv6 port unreachable quoting IPv6 UDP."""
    a4, b4 = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])
    a6, b6 = bytes.fromhex("20010db8" + "00" * 11 + "01"), bytes.fromhex("20010db8" + "00" * 11 + "02")

    def ipv4(proto, body, src=a4, dst=b4):
        return struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(body), 7, 0x4000, 64, proto, 0, src, dst) + body

    def ipv6(nxt, body, src=a6, dst=b6):
        return struct.pack(">IHBB", 0x60000000, len(body), nxt, 64) + src + dst + body

    udp = struct.pack(">HHHH", 50000, 7777, 40, 0) + bytes(32)
    tcp = struct.pack(">HHIIBBHHH", 51000, 443, 1001, 5001, 0x50, 0x18, 64000, 0, 0) + bytes(20)
    icmp = lambda t, c, quoted: struct.pack(">BBHI", t, c, 0, 0) + quoted
    return [(ipv4(1, icmp(11, 0, ipv4(17, udp)[:28]), b4, a4), 0),
            (ipv4(1, icmp(3, 1, ipv4(6, tcp)), b4, a4), 0),
            (ipv6(58, icmp(1, 4, ipv6(17, udp)), b6, a6), 0)]


def udt_seeds():
    """lua: UDT4 (udt.lua), heuristic mode: one datagram of each kind from the
    committed lab capture (the handshake claims the address pair, then data,
    the three ACK sizes, NAKs with one number and with a range, ACK2,
    keep-alive, shutdown), and the kinds the lab run did not send: a NAK of
    several entries ending in a cut range, delay warning, message drop
    request, peer error, a user-defined type. Every seed gets the client's
    port order: the target always sends from 10.0.0.1 to 10.0.0.2, so both
    directions of the run are one address pair only that way, the one the
    handshake seed claims."""
    with open(os.path.join(ROOT, "tests", "kcp_enet", "data", "udt_loss5", "client.pcap"), "rb") as f:
        lt, frames = read_pcap(f.read())
    kinds, ports = set(), None
    for (sp, dp), pl in udp_payloads(lt, frames):
        if len(pl) < 16:
            continue
        w0 = struct.unpack(">I", pl[:4])[0]
        key = (w0 >> 16, len(pl)) if w0 & 0x80000000 else (0, len(pl) > 100)
        if key in kinds:
            continue
        kinds.add(key)
        ports = ports or (sp, dp)
        blob = struct.pack("<BHHB", 2, ports[0], ports[1], 16) + pl[:1600]
        put("lua", "udt_%02d_%s" % (len(kinds), hashlib.sha1(blob).hexdigest()[:8]), blob)

    def control(ctype, info, *body):
        return struct.pack(">IIII", 0x80000000 | ctype << 16, info, 0, 0xf4ae82) + b"".join(
            struct.pack(">I", w) for w in body)

    isn = 1780848226
    for pl in [control(3, 0, 0x80000000 | isn + 3, isn + 5, isn + 7, 0x80000000 | isn + 9),
               control(4, 0, 0), control(7, 0xe0000007, isn + 20, isn + 23), control(8, 4000, 0),
               control(0x7fff, 9, 0)]:
        kinds.add(pl)
        blob = struct.pack("<BHHB", 2, ports[0], ports[1], 16) + pl
        put("lua", "udt_%02d_%s" % (len(kinds), hashlib.sha1(blob).hexdigest()[:8]), blob)


# filter: display filters, text as typed: relations, sets, strings, and
# arithmetic (4.0's + - * / % &, unary minus, {grouping}).
FILTERS = [
    "grudp", "grudp.type == DATA && ip.addr == 10.0.0.0/8", "udp.port not in {7777, 40000..40001}",
    "!(kcp.cmd === PUSH) || enet", 'udp contains "RU" or frame matches "(?-i)\\x52U"',
    "eth.dst == 02:00:0a:00:01:01 and tcp.flags & 0x12", "frame.time_delta_displayed >= 0.05",
    "grudp.ts - grudp.ts_echo > 0", "frame.len * 2 >= 200", "udp.srcport % 2 == 1", "-udp.length < -20",
    "udp.length - 8 * 2 > 100", "{udp.length - 8} * 2 > 100", "kcp.sn - kcp.una !== 0",
    "udp.srcport / 0 === 5", "udp.length / {udp.srcport - 7777} >= 0", "udp.length - - 8 > 100",
    "frame.len & 1 + 1 == 2", "frame.len/2 > 100 && ip.dst==10.0.0.0/8",
    "frame.time_relative + frame.time_delta > 1", "udt4.hs.reqtype * -1 > 0",
    "not {frame.len - udp.length} % 3 == 0 || -frame.len", "ip.src + 1 == 1",
]


def quic_seeds():
    """fuzz_quic.cpp's input from the quic-go lab runs and aioquic's frames
    scenario (every frame type): the key log, then the first datagrams each
    way (so the fuzzer starts with packets it can open), and without the key
    log; and RFC 9001 A.2's client Initial alone."""
    for run, count in (("quic_loss0", 40), ("quic_loss5", 120), ("aioquic_frames", 228)):
        base = os.path.join(ROOT, "tests", "kcp_enet", "data", run)
        keys = open(os.path.join(base, "client.keylog"), "rb").read()
        with open(os.path.join(base, "client.pcap"), "rb") as f:
            lt, frames = read_pcap(f.read())
        datagrams = b""
        payloads = udp_payloads(lt, frames)
        server_port = payloads[0][0][1]  # the client's port may change (aioquic_frames rebinds)
        for (_sp, dp), pl in payloads[:count]:
            datagrams += struct.pack("<BBH", 1 if dp == server_port else 0, 4, len(pl)) + pl
        put("quic", run + "_keys", struct.pack("<H", len(keys)) + keys + datagrams)
        put("quic", run + "_nokeys", struct.pack("<H", 0) + datagrams[:6000])
    rfc_a2 = bytes.fromhex(RFC9001_A2_CLIENT_INITIAL)
    put("quic", "rfc9001_a2", struct.pack("<H", 0) + struct.pack("<BBH", 1, 0, len(rfc_a2)) + rfc_a2)


def filter_seeds():
    for i, text in enumerate(FILTERS):
        blob = text.encode()
        put("filter", "f%02d_%s" % (i + 1, hashlib.sha1(blob).hexdigest()[:8]), blob)


def main():
    sim = sys.argv[1] if len(sys.argv) > 1 else None
    captures = {}
    for name in sorted(os.listdir(LINK)):
        if ".pcap" in name:
            captures[name] = open(os.path.join(LINK, name), "rb").read()
    if sim:
        with tempfile.TemporaryDirectory() as tmp:
            for tag, args in [("sim_small", []),
                              ("sim_lossy", ["--loss", "0.2", "--reorder", "0.1", "--fragment", "0.5"]),
                              ("sim_raw_nsec", ["--link", "raw", "--nsec"])]:
                p = os.path.join(tmp, tag + ".pcap")
                subprocess.run([sim, "--out", p, "--packets", "60", "--seed", "7"] + args,
                               check=True, stdout=subprocess.DEVNULL)
                captures[tag + ".pcap"] = open(p, "rb").read()

    # capture + ingest: the files as they are.
    for name, data in captures.items():
        put("capture", name, data)
        put("ingest", name, data)
    put("capture", "empty_pcap_header", captures["eth.pcap"][:24])

    # decode: the captures' first 40 frames, and the IP edge cases.
    for name, data in captures.items():
        lt, frames = read_pcap(data)
        if lt is None or lt not in LINK_TYPES:
            continue
        put("decode", name.replace(".", "_"), decode_seed(lt, [(fr, 0) for _s, _f, fr in frames[:40]]))
    put("decode", "ip_edges", decode_seed(101, ip_edge_frames()))
    put("decode", "icmp_errors", decode_seed(101, icmp_error_frames()))

    # lua: (u8 mode, u16 a, u16 b, u8 extra, payload), every mode kind.
    lt, frames = read_pcap(captures.get("sim_lossy.pcap", captures["eth.pcap"]))
    seen = set()
    payloads = udp_payloads(lt, frames) + udp_payloads(*read_pcap(captures["eth.pcap"]))
    for i, ((sp, dp), pl) in enumerate(payloads):
        key = (len(pl), pl[2:4])
        if key in seen:
            continue
        seen.add(key)
        mode = i % 32
        blob = struct.pack("<BHHB", mode, sp, dp, 16) + pl
        put("lua", "grudp_%02d_%s" % (len(seen), hashlib.sha1(blob).hexdigest()[:8]), blob)

    # lua: RakNet 4 (raknet.lua) from the committed lab capture, one datagram
    # of each first byte (offline messages, datagrams, ACK, NAK), heuristic
    # mode (no table port) so the conversation logic runs too.
    with open(os.path.join(ROOT, "tests", "kcp_enet", "data", "raknet_loss5", "client.pcap"), "rb") as f:
        lt, frames = read_pcap(f.read())
    kinds = set()
    for (sp, dp), pl in udp_payloads(lt, frames):
        key = (pl[0], len(pl) > 200)
        if key in kinds:
            continue
        kinds.add(key)
        blob = struct.pack("<BHHB", 2, sp, dp, 16) + pl[:1600]
        put("lua", "raknet_%02d_%s" % (len(kinds), hashlib.sha1(blob).hexdigest()[:8]), blob)
    udt_seeds()
    filter_seeds()
    quic_seeds()

    # flow: GRUDP contract (mode 0) and a synthetic one (mode 1), a few packets each.
    import random
    rnd = random.Random(5)
    for k in range(8):
        mode = k % 2
        blob = bytes([mode])
        if mode:
            blob += bytes(rnd.randrange(17) for _ in range(16)) + bytes([31, 31, 1, 3, 1, 0, 0x18, 1, 0x09, 2])
        for _ in range(40):
            kind = rnd.randrange(4)
            blob += bytes([kind, rnd.randrange(256), rnd.randrange(8)])
            if kind < 2:
                n = rnd.randrange(12)
                blob += bytes([n])
                for _ in range(n):
                    blob += bytes([rnd.randrange(24), rnd.randrange(64)])
            elif kind == 3:
                blob += bytes([rnd.choice([2, 0x12, 0x10, 0x11, 4])]) + struct.pack("<II", rnd.getrandbits(32), rnd.getrandbits(32))
        put("flow", "mix_%d" % k, blob)
    # analyzers: a contract stream (mode 0) and a TCP stream (mode 1) in the
    # layout fuzz_analyzers.cpp reads; mostly in-order with some loss/reorder.
    for k in range(6):
        if k % 2 == 0:
            blob = bytes([0, 50, 4, 0x61 | (k << 2) & 0x1c, 31, 31])
            for i in range(300):
                d = rnd.randrange(2)
                r = rnd.choice([0x10, 0x10, 0x11, 0x18, 0x20])  # data reliable, ack, unreliable
                dseq = rnd.choice([1, 1, 1, 2, 0, -3]) & 0xff
                blob += bytes([d | 2, rnd.randrange(40), 0xff, 0x07, r, dseq, 0, rnd.randrange(8),
                               rnd.randrange(8), rnd.randrange(16), 0, 32, 64, 0])
        else:
            blob = bytes([1, 50, 4])
            for i in range(300):
                d = rnd.randrange(2)
                blob += bytes([d | (8 if i % 3 else 0), rnd.randrange(40), 0x10 if i > 2 else 0x02])
                blob += struct.pack("<hBHH", rnd.choice([1460, 1460, 0, -2920]), rnd.randrange(3),
                                    65535, rnd.choice([1460, 0]))
                if i % 3:
                    blob += bytes([rnd.randrange(5), rnd.randrange(3)])
        put("analyzers", "stream_%d" % k, blob)

def _rfc_a2_from_test():
    """The hex of kClientInitial in tests/unit/decode/test_quic.cpp: one copy of the vector."""
    import re
    text = open(os.path.join(ROOT, "tests", "unit", "decode", "test_quic.cpp")).read()
    block = text[text.index("kClientInitial ="):text.index(";", text.index("kClientInitial ="))]
    return "".join(re.findall(r'"([0-9a-f]+)"', block))


# RFC 9001 Appendix A.2: the client's first Initial (DCID 8394c8f03e515708).
RFC9001_A2_CLIENT_INITIAL = _rfc_a2_from_test()

if __name__ == "__main__":
    main()
