#!/usr/bin/env bash
# Real ENet (libenet) or KCP (kcp-go) traffic under controlled loss, captured
# at both ends, with the libraries' own counters and the nft drop counters as
# the truth. See tests/kcp_enet/README.md.
#
#   client ns            router ns                     server ns
#   c0 10.78.1.2 <-veth-> r1 10.78.1.1 | r2 10.78.2.1 <-veth-> s0 10.78.2.2
#                        nft forward: numgen random drop per direction
#
# Usage: lab.sh --proto enet|kcp|kcptun|raknet|udt|quic --out DIR [--loss PCT | --loss-c2s PCT --loss-s2c PCT]
#               [--duration S] [--seed N] [--port N] [--fec DATA:PARITY]
#   enet    enet_workload.c on libenet
#   kcp     kcp_workload (Go, kcp-go): plain KCP, or FEC framing with --fec
#   kcptun  Debian's kcptun --crypt none (nonce + CRC32 framing; FEC with
#           --fec, default 0:0) carrying tcp_game.py's TCP stream to an echo
#   raknet  raknet_workload.py on RakNet 4 (PyPI raknet 0.3.0, installed by
#           packaging/debian-deps.sh --test into $RAKNET_PYTHONPATH)
#   udt     udt_workload.cpp on UDT4 (libudt-dev 4.11), UDT_DGRAM messages;
#           its JSON carries UDT's perfmon totals
#   quic    quic_workload (Go, quic-go v0.65.0 from the Go module proxy, built
#           by build_quic_workload.sh): DATAGRAM frames and one stream; its
#           JSON carries ConnectionStats; GSO off (QUIC_GO_DISABLE_GSO=true)
# Writes into DIR: client.pcap (captured on c0), server.pcap (on s0),
# client.json / server.json (the workload's counters; kcptun: its last
# --snmplog row), nft.json (router counters: seen_c2s, seen_s2c, drop_c2s,
# drop_s2c in packets), lab.log; raknet, udt and quic also client-messages.jsonl
# and server-messages.jsonl (every message sent and received, with times);
# quic also client.keylog / server.keylog (TLS secrets for Wireshark) and
# quic-go's qlogs <odcid>_client.sqlog / <odcid>_server.sqlog.
# Exit status: 0 ok, 77 cannot run here (not root / no netns / no libenet-dev
# or Go with kcp-go or kcptun / no Go >= 1.26 or module proxy for quic /
# missing tool), anything else: the lab failed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROTO="" OUT="" LOSS_C2S=0 LOSS_S2C=0 DURATION=10 SEED=1 PORT="" FEC=0:0

usage() { sed -n '2,29p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --proto) PROTO=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --loss) LOSS_C2S=$2; LOSS_S2C=$2; shift 2 ;;
    --loss-c2s) LOSS_C2S=$2; shift 2 ;;
    --loss-s2c) LOSS_S2C=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --fec) FEC=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "lab.sh: unknown argument $1" >&2; usage ;;
  esac
done
[[ -n $OUT && $PROTO =~ ^(enet|kcp|kcptun|raknet|udt|quic)$ ]] || usage
[[ $FEC =~ ^[0-9]+:[0-9]+$ ]] || usage
DS=${FEC%:*} PS=${FEC#*:}
# Server ports below the ephemeral range (32768-60999), so the client's port
# is the higher one (KCP has no handshake: the analysis takes the lower port
# for the server's).
[[ -n $PORT ]] || case $PROTO in enet) PORT=17091 ;; kcp) PORT=29900 ;; kcptun) PORT=29901 ;; raknet) PORT=19133 ;; udt) PORT=19000 ;; quic) PORT=19443 ;; esac

skip() { echo "lab.sh: SKIP: $*" >&2; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "needs root (network namespaces, nftables, capture)"
for t in ip nft tcpdump cc; do command -v "$t" >/dev/null || skip "$t not installed"; done

permille() { awk -v p="$1" 'BEGIN { v = int(p * 10 + 0.5); if (v < 0 || v > 1000) exit 1; print v }'; }
PM_C2S=$(permille "$LOSS_C2S") || usage
PM_S2C=$(permille "$LOSS_S2C") || usage

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/lab.log
: >"$LOG"
log() { echo "[$(date +%T.%N | cut -c1-12)] $*" | tee -a "$LOG" >&2; }

# The workload programs are built here, so the script also runs by hand.
BIN=${KCP_ENET_LAB_BIN:-$OUT/bin}
mkdir -p "$BIN"
build_c() { # name source [libs]
  if [[ ! -x $BIN/$1 || $2 -nt $BIN/$1 ]]; then
    cc -O2 -Wall -o "$BIN/$1.tmp.$$" "$2" "${@:3}" 2>>"$LOG" || return 1
    mv -f "$BIN/$1.tmp.$$" "$BIN/$1"
  fi
}
build_c veth_offload "$HERE/../netns/veth_offload.c" || { echo "lab.sh: cannot build veth_offload" >&2; exit 1; }
if [[ $PROTO == enet ]]; then
  [[ -f /usr/include/enet/enet.h ]] || skip "libenet-dev not installed"
  build_c enet_workload "$HERE/enet_workload.c" -lenet || { echo "lab.sh: cannot build enet_workload" >&2; exit 1; }
  WORKLOAD=$BIN/enet_workload
elif [[ $PROTO == udt ]]; then
  [[ -f /usr/include/udt/udt.h ]] || skip "libudt-dev not installed"
  command -v c++ >/dev/null || skip "c++ not installed"
  if [[ ! -x $BIN/udt_workload || $HERE/udt_workload.cpp -nt $BIN/udt_workload ]]; then
    c++ -std=c++17 -O2 -Wall -o "$BIN/udt_workload.tmp.$$" "$HERE/udt_workload.cpp" -ludt -pthread 2>>"$LOG" \
      && mv -f "$BIN/udt_workload.tmp.$$" "$BIN/udt_workload" || { echo "lab.sh: cannot build udt_workload" >&2; exit 1; }
  fi
elif [[ $PROTO == quic ]]; then
  Q=$HERE/quic_workload
  if [[ ! -x $BIN/quic_workload || $Q/main.go -nt $BIN/quic_workload || $Q/go.mod -nt $BIN/quic_workload \
        || $Q/go.sum -nt $BIN/quic_workload ]]; then
    rc=0
    "$HERE/build_quic_workload.sh" "$BIN/quic_workload" >>"$LOG" 2>&1 || rc=$?
    [[ $rc -eq 77 ]] && skip "cannot build quic_workload: $(grep '^SKIP: ' "$LOG" | tail -1 | cut -c7-)"
    [[ $rc -eq 0 ]] || { echo "lab.sh: cannot build quic_workload (see $LOG)" >&2; exit 1; }
  fi
elif [[ $PROTO == raknet ]]; then
  RAKNET_PYTHONPATH=${RAKNET_PYTHONPATH:-/usr/local/lib/rudpscope-lab/python}
  PYTHONPATH=$RAKNET_PYTHONPATH python3 -c 'import raknet' 2>/dev/null \
    || skip "the raknet Python package is not in $RAKNET_PYTHONPATH (packaging/debian-deps.sh --test installs it)"
elif [[ $PROTO == kcptun ]]; then
  command -v kcptun-server >/dev/null && command -v kcptun-client >/dev/null || skip "kcptun not installed"
  command -v python3 >/dev/null || skip "python3 not installed"
else
  command -v go >/dev/null || skip "go not installed"
  [[ -d /usr/share/gocode/src/github.com/xtaci/kcp-go ]] || skip "golang-github-xtaci-kcp-dev not installed"
  if [[ ! -x $BIN/kcp_workload || $HERE/kcp_workload/main.go -nt $BIN/kcp_workload ]]; then
    "$HERE/build_kcp_workload.sh" "$BIN/kcp_workload" >>"$LOG" 2>&1 \
      || skip "cannot build kcp_workload offline (see $LOG)"
  fi
  WORKLOAD=$BIN/kcp_workload
fi

# shellcheck source=../netns/three_ns.sh
source "$HERE/../netns/three_ns.sh"
three_ns_setup rke 78
# Checksum offload would leave UDP checksums unfilled in the sender's capture.
inC "$BIN/veth_offload" c0 >>"$LOG"
inR "$BIN/veth_offload" r1 r2 >>"$LOG"
inS "$BIN/veth_offload" s0 >>"$LOG"

# Loss in the router's forward hook: the sender's capture has every copy,
# the receiver's capture misses exactly the dropped datagrams.
inR nft -f - <<EOF
table inet lab {
  counter seen_c2s { }
  counter seen_s2c { }
  counter drop_c2s { }
  counter drop_s2c { }
  chain forward_loss {
    type filter hook forward priority 0; policy accept;
    ip saddr $C_IP meta l4proto udp counter name seen_c2s
    ip saddr $S_IP meta l4proto udp counter name seen_s2c
    ip saddr $C_IP meta l4proto udp numgen random mod 1000 < $PM_C2S counter name drop_c2s drop
    ip saddr $S_IP meta l4proto udp numgen random mod 1000 < $PM_S2C counter name drop_s2c drop
  }
}
EOF
inR nft list ruleset >"$OUT/nft-rules.txt"
inC ping -c1 -W2 $S_IP >/dev/null 2>&1 || inC ping -c1 -W2 $S_IP >/dev/null 2>&1 || true
inS ping -c1 -W2 $C_IP >/dev/null 2>&1 || true
# The pings went through the forward hook as ICMP: only UDP is counted.

# Started directly (not through inC/inS, which would fork a subshell) so
# that $! is tcpdump itself and SIGINT reaches it.
ip netns exec "$NC" "${PIN[@]}" tcpdump -i c0 -n -s 0 --immediate-mode -U -w "$OUT/client.pcap" udp 2>>"$LOG" &
PIDS+=($!)
ip netns exec "$NS" "${PIN[@]}" tcpdump -i s0 -n -s 0 --immediate-mode -U -w "$OUT/server.pcap" udp 2>>"$LOG" &
PIDS+=($!)
sleep 1

# The libraries time RTT in their own service loops: on a busy machine a
# process that waits for a CPU adds that wait to its RTT, which no capture
# sees. Real-time priority keeps them prompt (they sleep most of the time).
RT=()
if command -v chrt >/dev/null && chrt -f 10 true 2>/dev/null; then RT=(chrt -f 10); fi
log "$PROTO: loss c2s ${LOSS_C2S}% s2c ${LOSS_S2C}%, ${DURATION}s, seed $SEED, port $PORT, fec $FEC"
if [[ $PROTO == kcptun ]]; then
  # kcptun logs its kcp-go SNMP counters every second; the last row is the truth.
  # --keepalive 25 (smux requires < 30): no heartbeat between the last SNMP
  # row and the end of a run shorter than that.
  KT=(--crypt none --mode fast --nocomp --ds "$DS" --ps "$PS" --snmpperiod 1 --keepalive 25 --quiet)
  ip netns exec "$NS" "${PIN[@]}" python3 "$HERE/tcp_game.py" server 12948 2>>"$LOG" &
  ECHOPID=$!
  ip netns exec "$NS" "${PIN[@]}" "${RT[@]}" kcptun-server -l ":$PORT" -t 127.0.0.1:12948 "${KT[@]}" \
    --snmplog "$OUT/server-snmp.csv" >>"$LOG" 2>&1 &
  KSPID=$!
  PIDS+=($KSPID)
  ip netns exec "$NC" "${PIN[@]}" "${RT[@]}" kcptun-client -l 127.0.0.1:12949 -r "$S_IP:$PORT" "${KT[@]}" \
    --snmplog "$OUT/client-snmp.csv" >>"$LOG" 2>&1 &
  KCPID=$!
  PIDS+=($KCPID)
  sleep 1
  rc=0
  ip netns exec "$NC" "${PIN[@]}" python3 "$HERE/tcp_game.py" client 127.0.0.1 12949 "$DURATION" "$SEED" \
    >"$OUT/client-app.json" 2>>"$LOG" || rc=$?
  [[ $rc -eq 0 ]] || { log "tcp_game client failed ($rc)"; exit 1; }
  sleep 2.5  # retransmissions done, one more SNMP row written
  # (SIGTERM: background jobs of a script ignore SIGINT, and python keeps that.)
  kill -TERM $KCPID $KSPID $ECHOPID 2>/dev/null || true
  wait $KCPID $KSPID $ECHOPID 2>/dev/null || true
  snmp_json() { # csv role -> {"role":..., "snmp":{last row}}
    python3 - "$1" "$2" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
head, last = rows[0], rows[-1]
print(json.dumps({"role": sys.argv[2], "snmp": {k: int(v) for k, v in zip(head, last) if v.isdigit()}}))
PY
  }
  snmp_json "$OUT/client-snmp.csv" client >"$OUT/client.json"
  snmp_json "$OUT/server-snmp.csv" server >"$OUT/server.json"
elif [[ $PROTO == quic ]]; then
  # One capture frame = one QUIC datagram: GSO would hand veth (and tcpdump)
  # super-packets. The qlogs go to $OUT as <odcid>_client.sqlog / _server.sqlog.
  rm -f "$OUT"/*_client.sqlog "$OUT"/*_server.sqlog
  QENV=(env QUIC_GO_DISABLE_GSO=true QLOGDIR="$OUT")
  QW=("$BIN/quic_workload" -duration "$DURATION" -seed "$SEED")
  ip netns exec "$NS" "${PIN[@]}" "${RT[@]}" "${QENV[@]}" "${QW[@]}" -mode server -addr ":$PORT" \
    -keylog "$OUT/server.keylog" -messages "$OUT/server-messages.jsonl" >"$OUT/server.json" 2>>"$LOG" &
  SPID=$!
  PIDS+=($SPID)
  sleep 0.5
  ip netns exec "$NC" "${PIN[@]}" "${RT[@]}" "${QENV[@]}" "${QW[@]}" -mode client -addr "$S_IP:$PORT" \
    -keylog "$OUT/client.keylog" -messages "$OUT/client-messages.jsonl" >"$OUT/client.json" 2>>"$LOG" &
  CPID=$!
  PIDS+=($CPID)
  rc=0
  wait $CPID || rc=$?
  wait $SPID || rc=$?
  [[ $rc -eq 0 ]] || { log "quic workload failed ($rc)"; exit 1; }
elif [[ $PROTO == raknet || $PROTO == udt ]]; then
  if [[ $PROTO == udt ]]; then RK=("$BIN/udt_workload")
  else RK=(env PYTHONPATH="$RAKNET_PYTHONPATH" python3 "$HERE/raknet_workload.py"); fi
  ip netns exec "$NS" "${PIN[@]}" "${RT[@]}" "${RK[@]}" server "$PORT" "$DURATION" "$SEED" \
    "$OUT/server-messages.jsonl" >"$OUT/server.json" 2>>"$LOG" &
  SPID=$!
  PIDS+=($SPID)
  sleep 0.5
  ip netns exec "$NC" "${PIN[@]}" "${RT[@]}" "${RK[@]}" client $S_IP "$PORT" "$DURATION" "$SEED" \
    "$OUT/client-messages.jsonl" >"$OUT/client.json" 2>>"$LOG" &
  CPID=$!
  PIDS+=($CPID)
  rc=0
  wait $CPID || rc=$?
  wait $SPID || rc=$?
  [[ $rc -eq 0 ]] || { log "$PROTO workload failed ($rc)"; exit 1; }
else
  ip netns exec "$NS" "${PIN[@]}" "${RT[@]}" "$WORKLOAD" server "$PORT" "$DURATION" "$SEED" $([[ $PROTO == kcp ]] && echo "$DS $PS") \
    >"$OUT/server.json" 2>>"$LOG" &
  SPID=$!
  PIDS+=($SPID)
  sleep 0.3
  if [[ $PROTO == enet ]]; then
    ip netns exec "$NC" "${PIN[@]}" "${RT[@]}" "$WORKLOAD" client $S_IP "$PORT" "$DURATION" "$SEED" >"$OUT/client.json" 2>>"$LOG" &
  else
    ip netns exec "$NC" "${PIN[@]}" "${RT[@]}" "$WORKLOAD" client $S_IP:"$PORT" "$DURATION" "$SEED" "$DS" "$PS" \
      >"$OUT/client.json" 2>>"$LOG" &
  fi
  CPID=$!
  PIDS+=($CPID)
  rc=0
  wait $CPID || rc=$?
  wait $SPID || rc=$?
  [[ $rc -eq 0 ]] || { log "workload failed ($rc)"; exit 1; }
fi
sleep 0.5
for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
PIDS=()

get() { inR nft list counter inet lab "$1" | awk '/packets/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i+1) }'; }
printf '{"loss_c2s_pct":%s,"loss_s2c_pct":%s,"seen_c2s":%s,"seen_s2c":%s,"drop_c2s":%s,"drop_s2c":%s}\n' \
  "$LOSS_C2S" "$LOSS_S2C" "$(get seen_c2s)" "$(get seen_s2c)" "$(get drop_c2s)" "$(get drop_s2c)" >"$OUT/nft.json"
log "client: $(cat "$OUT/client.json")"
log "server: $(cat "$OUT/server.json")"
log "nft: $(cat "$OUT/nft.json")"
