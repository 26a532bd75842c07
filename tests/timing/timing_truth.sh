#!/bin/bash
# Undecoded UDP flows analysed from timing alone against timing_sim.py's log:
# for several seeds, `analyze --json` must equal the truth exactly
# (check_timing.py), and the report must list the flows as not decoded and
# their silences, never "No problems found".
# Usage: timing_truth.sh RUDPSCOPE_CLI WORKDIR
set -euo pipefail
cli=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
for seed in 1 2 3 4 5 37; do
  python3 "$here/timing_sim.py" --seed "$seed" --pcap "$work/t$seed.pcap" --truth "$work/t$seed.json"
  rm -f "$work/t$seed.sqlite"
  "$cli" analyze "$work/t$seed.pcap" --db "$work/t$seed.sqlite" --json -q >"$work/t$seed.out.json"
  echo -n "seed $seed: "
  python3 "$here/check_timing.py" "$work/t$seed.json" "$work/t$seed.out.json"
done
"$cli" report "$work/t37.pcap" --db "$work/t37.sqlite" -q --output "$work/t37.html"
python3 - "$work/t37.html" "$work/t37.json" <<'PY'
import html, json, re, sys
truth = json.load(open(sys.argv[2]))
freeze = next(s for s in truth["flows"][0]["stalls"] if s["cause"] == "both_quiet")
at = (freeze["start_us"] - truth["first_us"]) / 1e6  # the report's times are from the first packet
text = html.unescape(re.sub(r"<[^>]+>", " ", open(sys.argv[1]).read()))
text = re.sub(r"\s+", " ", text)
need = ["2 UDP flows not decoded (timing only",
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
