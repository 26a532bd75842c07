#!/bin/bash
# The GRUDP, KCP and ENet captures analysed with their dissectors and with
# the dissectors off (--no-default-dissectors: "not decoded (timing only)"):
# where the dissector-based analysis has the same information, the inferred
# figures equal it exactly; every other figure has its reason
# (check_dissector_off.py). Captures: the committed real-library runs
# tests/kcp_enet/data/{kcp_loss5,enet_loss5}/{client,server}.pcap and a
# grudp-sim run at the client (5 % loss).
# Usage: dissector_off.sh RUDPSCOPE_CLI WORKDIR [SIM_BINARY]
set -euo pipefail
cli=$1 work=$2 sim=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../kcp_enet/data
mkdir -p "$work"

# Both analyses of CAPTURE into WORKDIR/NAME.{on,off}.{json,sqlite}.
analyze() {
  local capture=$1 name=$2
  rm -f "$work/$name.on.sqlite" "$work/$name.off.sqlite"
  "$cli" analyze "$capture" --db "$work/$name.on.sqlite" --json -q >"$work/$name.on.json"
  "$cli" analyze "$capture" --db "$work/$name.off.sqlite" --json -q --no-default-dissectors >"$work/$name.off.json"
}

status=0
for run in kcp_loss5 enet_loss5; do
  for end in client server; do
    analyze "$data/$run/$end.pcap" "$run.$end"
    python3 "$here/check_dissector_off.py" "${run%%_*}" "$work/$run.$end" || status=1
  done
done

if [ -n "$sim" ]; then
  "$sim" --out "$work/grudp.pcap" --connections 1 --duration 30 --loss 0.05 --seed 7 --vantage client
  analyze "$work/grudp.pcap" grudp
  "$cli" decode "$work/grudp.pcap" -e frame.number -e ip.src -e udp.srcport -e grudp.type -e grudp.seq -e grudp.ts \
    >"$work/grudp.tsv"
  python3 "$here/check_dissector_off.py" grudp "$work/grudp" "$work/grudp.tsv" || status=1
else
  echo "grudp: skipped (no SIM_BINARY given)"
fi
exit $status
