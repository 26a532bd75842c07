#!/usr/bin/env python3
"""One capture analysed twice: with its dissector (decoded) and with the
dissectors off (timing only, figures inferred from the first 32 payload
bytes). Where both analyses have the same information the figures must be
equal, exactly; every figure that legitimately differs has its reason, and
where the reason can be checked it is.

Usage: check_dissector_off.py CASE PREFIX [DECODE_TSV]
  CASE     grudp, kcp or enet (the expectations below)
  PREFIX   PREFIX.on.json, PREFIX.on.sqlite, PREFIX.off.json, PREFIX.off.sqlite:
           `rudpscope-cli analyze --json` and its database, without and with
           --no-default-dissectors
  DECODE_TSV  grudp only: `rudpscope-cli decode -e frame.number -e ip.src
           -e udp.srcport -e grudp.type -e grudp.seq -e grudp.ts` of the
           capture (the number every datagram carries at offset 8 and the
           clock at offset 20, pure ACKs included)

Directions are matched by their sender's address: without a handshake the
timing analysis may name the other end the client (ENet here: the higher
port is taken for the client's).

Compared per direction: packets, bytes, tick_hz, lost, duplicates,
reordered, loss_bursts, jitter_ms, rtt_ms (samples, min, p50, max); per
connection: the stalls. Prints the table and one line per mismatch; exits 1
if there is any.
"""
import json
import math
import sqlite3
import sys

DIRS = ("client_to_server", "server_to_client")
EQUAL = "equal"
COUNTER_FIGURES = ("lost", "duplicates", "reordered", "loss_bursts")

# Reasons shared by both directions of a case.
KCP_WHY = {
    "tick_hz": "decoded gaps are between datagrams carrying a new PUSH sn; the timing gaps are between all "
               "datagrams, kcp-go's ACK-only ones (a third or more, flushed 0-10 ms after the data they ack) "
               "included: the median gap may leave the tick",
    "counter": "no per-datagram counter: a datagram packs several segments, and when an ACK segment comes first "
               "its sn (offset 12) is the acked PUSH's, the peer's number",
    "jitter_ms": "offset 8 holds the sender's clock only when a PUSH comes first; an ACK first carries the acked "
                 "PUSH's ts, the peer's clock (about 300 ms apart here)",
    "rtt": "no echo without a counter to echo (una, the cumulative ack at offset 16, follows the peer's PUSH sn, "
           "which is no per-datagram counter)",
}
ENET_WHY = {
    "tick_hz": "decoded gaps are between datagrams carrying a new command number; the timing gaps are between all "
               "datagrams, ACK-only ones included (median gap 17 ms: no tick)",
    "counter": "ENet numbers commands, not datagrams (16-bit, per channel, unreliable numbers restart after each "
               "reliable one), and their offset moves by 2 with the SENT_TIME flag",
    "jitter_ms": "sentTime (u16, offset 2) is there only when the SENT_TIME flag is (datagrams with a reliable "
                 "command, under a third here); elsewhere offset 2 holds the first command",
    "rtt": "no counter found in either direction, so no echo of one",
}


def same_both_ways(why):
    d = {"packets": EQUAL, "bytes": EQUAL, "tick_hz": why["tick_hz"], "jitter_ms": why["jitter_ms"],
         "rtt": why["rtt"]}
    d.update({k: why["counter"] for k in COUNTER_FIGURES})
    return {name: d for name in DIRS}


GRUDP_FIELDS = {"seq": {"offset": 8, "size": 4, "byte_order": "be"},
                "ack": {"offset": 12, "size": 4, "byte_order": "be", "echoes": "last received"},
                "ts": {"offset": 20, "size": 4, "byte_order": "be", "unit_hz": 1000.0}}
GRUDP_DUPS = ("a pure ACK carries the next seq without taking it and a retransmission repeats its seq: the "
              "counter sees those numbers twice, the decoded analysis knows both by type and ts")
GRUDP_JITTER = ("reconciled", "jitter_every_datagram",
                "the decoded jitter is over each number's first copy (pure ACKs and retransmissions known by type "
                "and left out); the inferred one over every datagram, each with its own clock value")

# rules: EQUAL, a reason (str), or ("reconciled", check name, reason).
CASES = {
    "kcp": {"protocol": "kcp", "fields": {d: {} for d in DIRS}, "figures": same_both_ways(KCP_WHY)},
    "enet": {"protocol": "enet", "fields": {d: {} for d in DIRS}, "figures": same_both_ways(ENET_WHY)},
    # grudp-sim's capture at the client: client_to_server seen at its sender, server_to_client at its receiver.
    "grudp": {
        "protocol": "grudp",
        "fields": {d: GRUDP_FIELDS for d in DIRS},
        "figures": {
            "client_to_server": {
                "packets": EQUAL, "bytes": EQUAL, "tick_hz": EQUAL, "reordered": EQUAL,
                "lost": "at the sender every number is captured; the decoded loss is judged from the peer's acks "
                        "(ack and the ack_bits bitmap at offset 16, not read; offset 12 serves only as RTT echo)",
                "loss_bursts": "as lost",
                "duplicates": GRUDP_DUPS,
                "jitter_ms": GRUDP_JITTER,
                "rtt": ("reconciled", "karn",
                        "decoded samples every new (ack, ts_echo); the inference skips numbers captured twice "
                        "before the echo (Karn), and a pure ACK shows the number of the packet after it"),
            },
            "server_to_client": {
                "packets": EQUAL, "bytes": EQUAL, "tick_hz": EQUAL,
                "lost": ("reconciled", "pure_ack_numbers",
                         "a lost packet's number that a captured pure ACK carried is not missing for the counter"),
                "loss_bursts": "as lost",
                "duplicates": GRUDP_DUPS,
                "reordered": "a retransmission of a lost packet comes after higher numbers: late for the counter, "
                             "a retransmission for the decoded analysis (its ts is later)",
                "jitter_ms": GRUDP_JITTER,
                "rtt": ("reconciled", "karn",
                        "decoded samples every new (ack, ts_echo); the inference skips numbers captured twice "
                        "before the echo (Karn), and a pure ACK shows the number of the packet after it"),
            },
        },
    },
}

STALLS_WHY = ("a decoded stall runs from an unacked reliable send (or the last ack progress) to the ack that ends "
              "it, in the waiting data's direction; a timing stall is a silence, from the last packet before it to "
              "the first after it, in the direction that spoke last: each silence must lie in a decoded stall, and "
              "each decoded stall hold one silence or have both directions sending throughout")


def nearest_rank(values, q):
    s = sorted(values)
    return s[max(1, math.ceil(q * len(s) - 1e-9)) - 1]


class Run:
    """One analysis of the capture: its connection and database."""

    def __init__(self, prefix, mode):
        summary = json.load(open(f"{prefix}.{mode}.json"))
        if len(summary["connections"]) != 1:
            raise SystemExit(f"{prefix}.{mode}.json: {len(summary['connections'])} connections, expected 1")
        self.conn = summary["connections"][0]
        self.db = sqlite3.connect(f"file:{prefix}.{mode}.sqlite?mode=ro", uri=True)

    def sender(self, name):
        return self.conn["client"] if name == "client_to_server" else self.conn["server"]

    def dir_of(self, sender):
        return next(d for d in DIRS if self.sender(d) == sender)

    def rtt_samples(self, d):
        return [tuple(r) for r in self.db.execute(
            "SELECT frame, data_frame, rtt_ms FROM rtt_samples WHERE conn = ? AND dir = ? ORDER BY rowid",
            (self.conn["id"], DIRS.index(d)))]

    def stalls(self):
        return [tuple(r) for r in self.db.execute(
            "SELECT start_ns, end_ns, dir, cause FROM stalls WHERE conn = ? ORDER BY start_ns, dir",
            (self.conn["id"],))]

    def packet_times(self, d=None):
        q = "SELECT ts_ns FROM packets WHERE conn = ?" + (" AND dir = ?" if d else "") + " ORDER BY frame"
        return [r[0] for r in self.db.execute(q, (self.conn["id"], DIRS.index(d)) if d else (self.conn["id"],))]


def figures(x):
    """The compared figures of one direction of `analyze --json` (None: not given)."""
    rtt = x.get("rtt_ms") or {}
    f = {k: x.get(k) for k in ("packets", "bytes", "tick_hz") + COUNTER_FIGURES + ("jitter_ms",)}
    f.update({f"rtt {k}": rtt.get(k) for k in ("samples", "min", "p50", "max")})
    return f


def show(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {n}" for k, n in v.items()) + "}"
    return str(v)


class Numbers:
    """grudp: per frame, its sender and the number at offset 8 (`decode -e` output)."""

    def __init__(self, path):
        self.frames = {}
        self.where = {}  # (sender, number) -> the frames carrying it
        self.clock = {}  # frame -> grudp.ts (ms)
        for line in open(path):
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 6 and cols[4]:
                f, sender, number = int(cols[0]), f"{cols[1]}:{cols[2]}", int(cols[4])
                self.frames[f] = (sender, int(cols[3]), number)
                self.where.setdefault((sender, number), []).append(f)
                self.clock[f] = int(cols[5])

    def captured_before(self, sender, number, frame):
        return sum(1 for f in self.where.get((sender, number), []) if f < frame)

    def numbers_only_on_pure_acks(self, sender):
        data = {n for s, t, n in self.frames.values() if s == sender and t != 1}
        acks = {n for s, t, n in self.frames.values() if s == sender and t == 1}
        top = max(data)
        return {n for n in acks - data if n < top}  # serial arithmetic not needed: no wrap in the run


def check_karn(on, off, d, od, numbers, fail):
    """The inferred RTT samples of d's data are the decoded ones whose number was captured once before
    the echo, to the frame and the microsecond; their count, min, p50, max are the JSON's."""
    sender = on.sender(d)
    decoded = on.rtt_samples(d)
    want = [s for s in decoded if numbers.captured_before(sender, numbers.frames[s[1]][2], s[0]) == 1]
    got = off.rtt_samples(od)
    if sorted(got) != sorted(want):
        fail(f"{d} rtt: {len(got)} inferred samples, want the {len(want)} decoded ones (of {len(decoded)}) "
             f"whose number was captured once; {len(set(got) - set(want))} unexpected, "
             f"{len(set(want) - set(got))} missing")
    def summary(samples):
        values = [s[2] for s in samples]
        return {"samples": len(values), "min": min(values), "p50": nearest_rank(values, 0.5), "max": max(values)}

    for who, x, expect, what in (
            ("inferred", off.conn["directions"][od].get("rtt_ms") or {}, summary(want), "the decoded samples Karn keeps"),
            ("decoded", on.conn["directions"][d].get("rtt_ms") or {}, summary(decoded), "its stored samples")):
        for k, v in expect.items():
            if x.get(k) != v:
                fail(f"{d} rtt {k}: {who} {x.get(k)}, {what} give {v}")
    return f"= the {len(want)} of {len(decoded)} decoded samples whose number was captured once"


def check_pure_ack_numbers(on, off, d, od, numbers, fail):
    """At the receiver: the counter misses what the decoded analysis misses, but for numbers a captured
    pure ACK carried."""
    k = len(numbers.numbers_only_on_pure_acks(on.sender(d)))
    a, b = on.conn["directions"][d]["lost"], off.conn["directions"][od].get("lost")
    if b != a - k:
        fail(f"{d} lost: inferred {b}, decoded {a} minus {k} numbers only a pure ACK carried = {a - k}")
    return f"= {a} - {k} numbers only a captured pure ACK carried"


def check_jitter_every_datagram(on, off, d, od, numbers, fail):
    """The inferred jitter is RFC 3550's over every datagram of the sender, in capture order, each with the
    clock the dissector decodes (grudp.ts, ms) and its capture time: the same sum, to the last bit."""
    sender = on.sender(d)
    times = dict(on.db.execute("SELECT frame, ts_ns FROM packets WHERE conn = ? AND dir = ?",
                               (on.conn["id"], DIRS.index(d))))
    j, last = 0.0, None
    for f in sorted(f for f, x in numbers.frames.items() if x[0] == sender):
        ns, ts = times[f], numbers.clock[f]
        if last is not None:
            step = (ts - last[1]) & 0xFFFFFFFF
            step = step - (1 << 32) if step > 0x7FFFFFFF else step
            j += (abs((ns - last[0]) / 1e6 - step * 1.0) - j) / 16.0
        last = (ns, ts)
    got = off.conn["directions"][od].get("jitter_ms")
    if got != j:
        fail(f"{d} jitter_ms: inferred {got}, RFC 3550 over every datagram's grudp.ts gives {j}")
    return f"= {j:.6g}, RFC 3550 over every datagram's grudp.ts"


RECONCILE = {"karn": check_karn, "pure_ack_numbers": check_pure_ack_numbers,
             "jitter_every_datagram": check_jitter_every_datagram}


def check_stalls(on, off, fail, threshold_ns=200_000_000):
    """Each timing stall lies within a decoded stall; each decoded stall holds exactly one timing stall,
    or none while both directions kept sending (no gap of either reaching the threshold inside it)."""
    decoded, timing = on.stalls(), off.stalls()
    gaps = {d: on.packet_times(d) for d in DIRS}
    for t in timing:
        if not any(s[0] <= t[0] and t[1] <= s[1] for s in decoded):
            fail(f"stalls: timing stall {t} lies in no decoded stall")
    held = []
    for s in decoded:
        inside = [t for t in timing if s[0] <= t[0] and t[1] <= s[1]]
        held.append(len(inside))
        if len(inside) > 1:
            fail(f"stalls: decoded stall {s} holds {len(inside)} timing stalls")
        if not inside:
            longest = max(b - a for d in DIRS for a, b in zip(gaps[d], gaps[d][1:]) if b > s[0] and a < s[1])
            if longest >= threshold_ns:
                fail(f"stalls: decoded stall {s} holds no timing stall though a direction was quiet "
                     f"{longest / 1e6} ms in it")
    return (f"decoded {len(decoded)}, timing {len(timing)}; decoded stalls holding a silence: "
            f"{sum(1 for h in held if h == 1)}, while both sides kept sending: {sum(1 for h in held if h == 0)}")


def check_fields(case, on, off, fail):
    """The inference's preconditions: which fields it found (offset, size, byte order, echo style), and no
    figure given without the field it comes from."""
    for d in DIRS:
        od = off.dir_of(on.sender(d))
        inferred = off.conn["inferred"][od]
        got = {k: {n: v for n, v in f.items() if n != "fit"} for k, f in inferred.items()}
        if got != case["fields"][d]:
            fail(f"{d}: inferred fields {got}, expected {case['fields'][d]}")
        x = off.conn["directions"][od]
        other = off.conn["inferred"][DIRS[1 - DIRS.index(od)]]
        needs = [(k, "seq") for k in COUNTER_FIGURES] + [("jitter_ms", "ts")]
        for key, field in needs:
            if (key in x) != (field in inferred):
                fail(f"{d}: {key} {'given' if key in x else 'missing'} with inferred {field} "
                     f"{'missing' if field not in inferred else 'found'}")
        if ("rtt_ms" in x) != ("ack" in other):
            fail(f"{d}: rtt_ms {'given' if 'rtt_ms' in x else 'missing'} with the other direction's echo "
                 f"{'found' if 'ack' in other else 'missing'}")


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    name, prefix = sys.argv[1], sys.argv[2]
    case = CASES[name]
    numbers = Numbers(sys.argv[3]) if len(sys.argv) > 3 else None
    on, off = Run(prefix, "on"), Run(prefix, "off")
    failures = []
    fail = failures.append
    if on.conn["analysis"] != "decoded" or on.conn["protocol"] != case["protocol"]:
        fail(f"with the dissectors: {on.conn['protocol']} ({on.conn['analysis']})")
    if off.conn["analysis"] != "not decoded (timing only)" or off.conn["protocol"] != "udp":
        fail(f"without them: {off.conn['protocol']} ({off.conn['analysis']})")
    if {on.conn["client"], on.conn["server"]} != {off.conn["client"], off.conn["server"]}:
        raise SystemExit(f"{prefix}: not the same endpoints")
    check_fields(case, on, off, fail)
    print(f"{prefix} ({name}): decoded roles {on.conn['client']} -> {on.conn['server']}; timing roles "
          f"{off.conn['client']} -> {off.conn['server']} ({off.conn['roles_reason']})")
    for d in DIRS:
        od = off.dir_of(on.sender(d))
        a, b = figures(on.conn["directions"][d]), figures(off.conn["directions"][od])
        print(f"  {d} (from {on.sender(d)}; timing's {od})")
        rules = case["figures"][d]
        said = set()
        for key in a:
            rule = rules["rtt" if key.startswith("rtt ") else key]
            if rule == EQUAL:
                verdict = "equal"
                if a[key] != b[key]:
                    fail(f"{d} {key}: decoded {a[key]}, inferred {b[key]}: must be equal")
                    verdict = "NOT EQUAL"
            elif isinstance(rule, tuple):
                if key.startswith("rtt ") and key != "rtt samples":
                    verdict = "  (reconciled with the samples)"
                else:
                    verdict = f"reconciled: {RECONCILE[rule[1]](on, off, d, od, numbers, fail)} ({rule[2]})"
            elif key.startswith("rtt ") and key != "rtt samples":
                verdict = "  (as rtt samples)"
            else:
                verdict = "differs: " + ("(as above)" if rule in said else rule)
                said.add(rule)
            print(f"    {key:12} {show(a[key]):>22} {show(b[key]):>22}  {verdict}")
    print(f"  stalls: {check_stalls(on, off, fail)} ({STALLS_WHY})")
    for f in failures:
        print("MISMATCH", f)
    print(f"{prefix}: {'as expected' if not failures else f'{len(failures)} mismatches'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
