#!/bin/bash
# Undecoded UDP flows analysed from timing alone against timing_sim.py's log:
# for several seeds, `analyze --json` must equal the truth exactly
# (check_timing.py), and the report must list the flows as not decoded and
# their silences, never "No problems found"; `dissector infer` must write a
# dissector that tshark loads and that decodes the counter of every packet
# of the flow, and with which the analysis finds the truth's losses.
# Usage: timing_truth.sh RUDPSCOPE_CLI WORKDIR TSHARK
set -euo pipefail
cli=$1 work=$2 tshark=${3:-tshark}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
for seed in 1 2 3 4 5 37; do
  python3 "$here/timing_sim.py" --seed "$seed" --pcap "$work/t$seed.pcap" --truth "$work/t$seed.json"
  rm -f "$work/t$seed.sqlite"
  "$cli" analyze "$work/t$seed.pcap" --db "$work/t$seed.sqlite" --json -q >"$work/t$seed.out.json"
  echo -n "seed $seed: "
  python3 "$here/check_timing.py" "$work/t$seed.json" "$work/t$seed.out.json" "$work/t$seed.sqlite"
done
"$cli" report "$work/t37.pcap" --db "$work/t37.sqlite" -q --output "$work/t37.html"
python3 - "$work/t37.html" "$work/t37.json" <<'PY'
import html, json, re, sys
truth = json.load(open(sys.argv[2]))
freeze = next(s for s in truth["flows"][0]["stalls"] if s["cause"] == "both_quiet")
at = (freeze["start_us"] - truth["first_us"]) / 1e6  # the report's times are from the first packet
text = html.unescape(re.sub(r"<[^>]+>", " ", open(sys.argv[1]).read()))
text = re.sub(r"\s+", " ", text)
need = ["4 UDP flows not decoded (timing only",
        "freeze at %.3f s: neither side sent anything" % at,
        "the server sent nothing while the client kept sending (the peer or the path)",
        "the client sent nothing while the server kept sending (the capture host went quiet",
        "not decoded (timing only)</td>"]
raw = open(sys.argv[1]).read()
missing = [n for n in need[:-1] if n not in text] + [n for n in need[-1:] if n not in raw]
if "No problems found" in text: missing.append("not 'No problems found'")
if missing:
    sys.exit("report lacks: " + "; ".join(missing))
print("report: not decoded flows listed, silences worded with their causes")
PY

# A dissector written from the capture: tshark decodes the counter, the echo
# and the clock of each of the flow's packets as the payload holds them; the
# analysis with it
# decodes the flow and counts the truth's losses and late packets.
"$cli" dissector infer "$work/t37.pcap" --db "$work/t37.sqlite" -q -Y "udp.port == 59238" -w "$work/inferred.lua"
"$tshark" -r "$work/t37.pcap" -X lua_script:"$work/inferred.lua" -Y inferred_59238 -T fields \
  -e inferred_59238.seq -e inferred_59238.ack -e inferred_59238.ts -e udp.payload 2>/dev/null >"$work/inferred.tsv"
rm -f "$work/inferred.sqlite"
"$cli" analyze "$work/t37.pcap" --db "$work/inferred.sqlite" -q --json -X lua_script:"$work/inferred.lua" \
  >"$work/inferred.json"
python3 - "$work/t37.json" "$work/inferred.tsv" "$work/inferred.json" <<'PY'
import json, sys
truth = json.load(open(sys.argv[1]))["flows"][0]
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
def fields(payload):
    b = bytes.fromhex(payload)
    return [int.from_bytes(b[2:4], "little"), int.from_bytes(b[4:6], "little"), int.from_bytes(b[6:10], "big")]
wrong = [r for r in rows if [int(x) for x in r[:3]] != fields(r[3])]
problems = []
if len(rows) != sum(truth["packets"]) or wrong:
    problems.append(f"tshark decoded {len(rows)} frames (truth {sum(truth['packets'])}), {len(wrong)} wrong")
conn = next(c for c in json.load(open(sys.argv[3]))["connections"] if c["server"] == truth["server"])
if conn["protocol"] != "inferred_59238" or conn["analysis"] != "decoded":
    problems.append(f"conn 1 is {conn['protocol']} ({conn['analysis']})")
for d, name in enumerate(("client_to_server", "server_to_client")):
    for key in ("lost", "reordered"):
        got, want = conn["directions"][name][key], truth["counter"][d][key]
        if got != want:
            problems.append(f"{name} {key} {got}, truth {want}")
    # The contract's clock: jitter over the datagrams with a new number (a contract's unreliable numbering).
    got, want = conn["directions"][name].get("jitter_ms"), truth["ts"][d]["jitter_new_numbers_ms"]
    if got is None or abs(got - want) > 1e-9:
        problems.append(f"{name} jitter_ms {got}, truth {want}")
if problems:
    sys.exit("dissector infer: " + "; ".join(problems))
print(f"dissector infer: tshark decodes the counter, echo and clock of all {len(rows)} frames; with it, lost, "
      "reordered and the clock's jitter equal the truth")
PY
