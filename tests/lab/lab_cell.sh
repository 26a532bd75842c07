#!/usr/bin/env bash
# One cell of `rudpscope-cli lab`: one stack's game-like stream over a path
# with real one-way delay and nftables loss, captured at the client with
# `rudpscope-cli capture`, with the stack's own counters. See tests/lab/README.md.
#
#   client ns              router ns (ip_forward off)             server ns
#   c0 10.79.1.2 <-veth-> r1 | delay_relay (AF_PACKET) | r2 <-veth-> s0 10.79.2.2
#                        nft netdev egress on r2 / r1: numgen random drop
#
# Usage: lab_cell.sh --stack tcp-cubic|tcp-bbr|grudp|enet|kcp|raknet|udt|quic --loss PCT --delay MS
#                    --seconds S --capture FILE --out DIR --cli RUDPSCOPE_CLI [--seed N]
#                    [--capture-as USER: a wireshark-group user capturing through dumpcap]
#                    [--outage AT:SECONDS: the router drops everything both ways from AT s after
#                     the client starts, for SECONDS; outage.json gives its epoch times and drops]
# Writes FILE (pcapng, captured on c0) and into DIR: client.json, server.json
# (the endpoints' counters), nft.json (router: seen/drop per direction),
# relay.json, outage.json (with --outage), for TCP
# nstat-client.json / nstat-server.json, for QUIC client.keylog / server.keylog
# (TLS secrets) and quic-go's qlogs <odcid>_client.sqlog / <odcid>_server.sqlog,
# capture.log, lab.log.
# Exit status: 0 ok, 77 cannot run (not root / missing tool), 2 bad usage,
# anything else: the cell failed. Namespaces are removed on every exit.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STACK="" LOSS=0 DELAY=0 SECONDS_=10 CAPTURE="" OUT="" CLI="" SEED=1 CAPTURE_AS="" OUTAGE=""

usage() { sed -n '10,22p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --stack) STACK=$2; shift 2 ;;
    --loss) LOSS=$2; shift 2 ;;
    --delay) DELAY=$2; shift 2 ;;
    --seconds) SECONDS_=$2; shift 2 ;;
    --capture) CAPTURE=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --cli) CLI=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --capture-as) CAPTURE_AS=$2; shift 2 ;;
    --outage) OUTAGE=$2; shift 2 ;;
    *) echo "lab_cell.sh: unknown argument $1" >&2; usage ;;
  esac
done
[[ -n $STACK && -n $CAPTURE && -n $OUT && -n $CLI ]] || usage
[[ -z $OUTAGE || $OUTAGE =~ ^[0-9.]+:[0-9.]+$ ]] || usage
skip() { echo "lab_cell.sh: SKIP: $*" >&2; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "needs root (network namespaces, nftables, capture)"
for t in ip nft nstat ss; do command -v "$t" >/dev/null || skip "$t not installed"; done
permille() { awk -v p="$1" 'BEGIN { v = int(p * 10 + 0.5); if (v < 0 || v > 1000) exit 1; print v }'; }
PM=$(permille "$LOSS") || usage
SECS=$(awk -v s="$SECONDS_" 'BEGIN { printf "%d", s + 0.5 }')  # ENet and KCP take whole seconds

tool() { [[ -x $HERE/$1 ]] || skip "$1 not found in $HERE"; echo "$HERE/$1"; }
RELAY=$(tool delay_relay)
OFFLOAD=$(tool veth_offload)
case $STACK in
  tcp-cubic | tcp-bbr) WORKLOAD=$(tool tcp_workload) CC=${STACK#tcp-} PROTO=tcp PORT=7777 ;;
  grudp) WORKLOAD=$(tool grudp-endpoint) PROTO=udp PORT=7777 ;;
  enet) WORKLOAD=$(tool enet_workload) PROTO=udp PORT=17091 ;;
  kcp) WORKLOAD=$(tool kcp_workload) PROTO=udp PORT=29900 ;;
  raknet)
    # RakNet 4 through PyPI's raknet wheel (packaging/debian-deps.sh --test installs it).
    WORKLOAD=$(tool raknet_workload.py) PROTO=udp PORT=19133
    RAKNET_PYTHONPATH=${RAKNET_PYTHONPATH:-/usr/local/lib/rudpscope-lab/python}
    PYTHONPATH=$RAKNET_PYTHONPATH python3 -c 'import raknet' 2>/dev/null \
      || skip "the raknet Python package is not in $RAKNET_PYTHONPATH"
    WORKLOAD_CMD=(env PYTHONPATH="$RAKNET_PYTHONPATH" python3 "$WORKLOAD") ;;
  udt)
    # UDT4 on Debian's libudt (built in the build tree only: not packaged).
    WORKLOAD=$(tool udt_workload) PROTO=udp PORT=19000
    WORKLOAD_CMD=("$WORKLOAD") ;;
  quic)
    # quic-go (tests/kcp_enet/quic_workload). GSO off: one capture frame is
    # one QUIC datagram. The key logs and qlogs go to $OUT.
    WORKLOAD=$(tool quic_workload) PROTO=udp PORT=19443 ;;
  *) usage ;;
esac

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/lab.log
: >"$LOG"
log() { echo "[$(date +%T.%N | cut -c1-12)] $*" >>"$LOG"; }

# shellcheck source=../netns/three_ns.sh
source "$HERE/three_ns.sh"
three_ns_setup rlab 79
# The router is a delaying bridge, not an IP router: no forwarding, no
# addresses; the end hosts reach each other on-link through it.
inR sysctl -qw net.ipv4.ip_forward=0
# No IPv6 chatter (router solicitations, MLD) through the relay.
for n in $NC $NR $NS; do ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1; done
inR ip addr flush dev r1
inR ip addr flush dev r2
inC ip route replace "$S_IP/32" dev c0
inS ip route replace "$C_IP/32" dev s0
inC "$OFFLOAD" c0 >>"$LOG"
inR "$OFFLOAD" r1 r2 >>"$LOG"
inS "$OFFLOAD" s0 >>"$LOG"

# Loss on the relay's output (netdev egress): the client's capture on c0
# sees every copy the client sent, the dropped ones included.
inR nft -f - <<EOF
table netdev lab {
  counter seen_c2s { }
  counter seen_s2c { }
  counter drop_c2s { }
  counter drop_s2c { }
  chain to_server {
    type filter hook egress device r2 priority 0; policy accept;
    ip saddr $C_IP ip protocol $PROTO counter name seen_c2s
    ip saddr $C_IP ip protocol $PROTO numgen random mod 1000 < $PM counter name drop_c2s drop
  }
  chain to_client {
    type filter hook egress device r1 priority 0; policy accept;
    ip saddr $S_IP ip protocol $PROTO counter name seen_s2c
    ip saddr $S_IP ip protocol $PROTO numgen random mod 1000 < $PM counter name drop_s2c drop
  }
  # --outage: rules added for its window only, after the counting above.
  counter outage_c2s { }
  counter outage_s2c { }
  chain outage_to_server { type filter hook egress device r2 priority 1; policy accept; }
  chain outage_to_client { type filter hook egress device r1 priority 1; policy accept; }
}
EOF
inR nft list ruleset >"$OUT/nft-rules.txt"

# Prompt timing: the relay and the workloads run with real-time priority
# when allowed (a process waiting for a CPU adds that wait to its RTT).
RT=()
if command -v chrt >/dev/null && chrt -f 10 true 2>/dev/null; then RT=(chrt -f 10); fi
ip netns exec "$NR" "${PIN[@]}" "${RT[@]}" "$RELAY" r1 r2 "$DELAY" >"$OUT/relay.json" 2>>"$LOG" &
RELAY_PID=$!
PIDS+=($RELAY_PID)
sleep 0.2
# Static neighbour entries: no ARP through the relay during the run.
mac() { ip -n "$1" -br link show "$2" | awk '{ print $3 }'; }
inC ip neigh replace "$S_IP" lladdr "$(mac "$NS" s0)" dev c0 nud permanent
inS ip neigh replace "$C_IP" lladdr "$(mac "$NC" c0)" dev s0 nud permanent

# The capture: rudpscope-cli's own live capture (analysed as it runs), not
# pinned (it reads; the senders are the ones that must share a CPU).
# With --capture-as, as a wireshark-group user does it (through dumpcap), in
# a folder of that user's; the files move into place when it has stopped.
rm -f "$CAPTURE"
CAP_FILE=$CAPTURE CAP_CMD=("$CLI")
if [[ -n $CAPTURE_AS ]]; then
  id -nG "$CAPTURE_AS" | grep -qw wireshark || { log "$CAPTURE_AS is not in the wireshark group"; exit 1; }
  CAP_DIR=$OUT/captured-as-$CAPTURE_AS
  rm -rf "$CAP_DIR"
  mkdir -p "$CAP_DIR"
  chown "$CAPTURE_AS" "$CAP_DIR"
  CAP_FILE=$CAP_DIR/$(basename "$CAPTURE")
  CAP_CMD=(setpriv --reuid="$CAPTURE_AS" --regid="$CAPTURE_AS" --init-groups "$CLI")
fi
ip netns exec "$NC" "${CAP_CMD[@]}" capture -i c0 -w "$CAP_FILE" >"$OUT/capture.out" 2>"$OUT/capture.log" &
CAP_PID=$!
PIDS+=($CAP_PID)
for _ in $(seq 100); do [[ -s $CAP_FILE ]] && break; sleep 0.05; done
[[ -s $CAP_FILE ]] || { log "the capture did not start"; cat "$OUT/capture.log" >&2; exit 1; }
sleep 0.5

log "$STACK: loss ${LOSS}% each way, delay ${DELAY} ms each way, ${SECONDS_} s, seed $SEED"
inC_rt() { ip netns exec "$NC" "${PIN[@]}" "${RT[@]}" "$@"; }
inS_rt() { ip netns exec "$NS" "${PIN[@]}" "${RT[@]}" "$@"; }
TIMEOUT=$(awk -v d="$SECONDS_" 'BEGIN { printf "%d", d + 120 }')
case $STACK in
  tcp-*)
    inS_rt "$WORKLOAD" server $PORT --nodelay 1 --seed $((SEED * 2 + 1)) --timeout "$TIMEOUT" --cc "$CC" \
      >"$OUT/server.json" 2>>"$LOG" &
    SRV=$! ;;
  grudp)
    inS_rt "$WORKLOAD" server --port $PORT --exit-after-clients --seed $((SEED * 2 + 1)) \
      --json "$OUT/server.json" --quiet 2>>"$LOG" &
    SRV=$! ;;
  quic)
    rm -f "$OUT"/*_client.sqlog "$OUT"/*_server.sqlog
    QENV=(env QUIC_GO_DISABLE_GSO=true QLOGDIR="$OUT")
    inS_rt "${QENV[@]}" "$WORKLOAD" -mode server -addr ":$PORT" -duration "$SECONDS_" -seed "$SEED" \
      -keylog "$OUT/server.keylog" -messages "$OUT/server-messages.jsonl" >"$OUT/server.json" 2>>"$LOG" &
    SRV=$! ;;
  raknet | udt)
    inS_rt "${WORKLOAD_CMD[@]}" server $PORT "$SECONDS_" "$SEED" "$OUT/server-messages.jsonl" \
      >"$OUT/server.json" 2>>"$LOG" &
    SRV=$! ;;
  *)
    inS_rt "$WORKLOAD" server $PORT "$SECS" "$SEED" >"$OUT/server.json" 2>>"$LOG" &
    SRV=$! ;;
esac
PIDS+=($SRV)
sleep 0.3
case $STACK in
  tcp-*)
    inC_rt "$WORKLOAD" client "$S_IP" $PORT --nodelay 1 --duration "$SECONDS_" --seed $((SEED * 2)) \
      --timeout "$TIMEOUT" --cc "$CC" >"$OUT/client.json" 2>>"$LOG" &
    CLI_PID=$! ;;
  grudp)
    inC_rt "$WORKLOAD" client --server "$S_IP:$PORT" --duration "$SECONDS_" --seed $((SEED * 2)) \
      --json "$OUT/client.json" --quiet 2>>"$LOG" &
    CLI_PID=$! ;;
  enet)
    inC_rt "$WORKLOAD" client "$S_IP" $PORT "$SECS" "$SEED" >"$OUT/client.json" 2>>"$LOG" &
    CLI_PID=$! ;;
  kcp)
    inC_rt "$WORKLOAD" client "$S_IP:$PORT" "$SECS" "$SEED" 0 0 >"$OUT/client.json" 2>>"$LOG" &
    CLI_PID=$! ;;
  quic)
    inC_rt "${QENV[@]}" "$WORKLOAD" -mode client -addr "$S_IP:$PORT" -duration "$SECONDS_" -seed "$SEED" \
      -keylog "$OUT/client.keylog" -messages "$OUT/client-messages.jsonl" >"$OUT/client.json" 2>>"$LOG" &
    CLI_PID=$! ;;
  raknet | udt)
    inC_rt "${WORKLOAD_CMD[@]}" client "$S_IP" $PORT "$SECONDS_" "$SEED" "$OUT/client-messages.jsonl" \
      >"$OUT/client.json" 2>>"$LOG" &
    CLI_PID=$! ;;
esac
PIDS+=($CLI_PID)
# The outage: every packet of the stack's protocol dropped both ways for its
# window (the relay's random loss and the counters above are unaffected).
if [[ -n $OUTAGE ]]; then
  (
    sleep "${OUTAGE%%:*}"
    start=$(date +%s.%N)
    inR nft add rule netdev lab outage_to_server ip saddr "$C_IP" ip protocol $PROTO counter name outage_c2s drop
    inR nft add rule netdev lab outage_to_client ip saddr "$S_IP" ip protocol $PROTO counter name outage_s2c drop
    sleep "${OUTAGE#*:}"
    inR nft flush chain netdev lab outage_to_server
    inR nft flush chain netdev lab outage_to_client
    end=$(date +%s.%N)
    c2s=$(inR nft list counter netdev lab outage_c2s | awk '/packets/ { print $2 }')
    s2c=$(inR nft list counter netdev lab outage_s2c | awk '/packets/ { print $2 }')
    [[ -n $c2s && -n $s2c ]] || { log "outage: no counters"; exit 1; }
    printf '{"start": %s, "end": %s, "dropped_c2s": %s, "dropped_s2c": %s}\n' "$start" "$end" "$c2s" "$s2c" \
      >"$OUT/outage.json"
    log "outage $start to $end: dropped $c2s c2s, $s2c s2c"
  ) &
  OUTAGE_PID=$!
  PIDS+=($OUTAGE_PID)
fi
RC=0
wait $CLI_PID || RC=$?
wait $SRV || RC=$?
[[ -z $OUTAGE ]] || wait "$OUTAGE_PID" || RC=$?
# TCP: until nothing but TIME-WAIT is left (a lost last ACK makes the server resend its FIN).
if [[ $PROTO == tcp ]]; then
  for _ in $(seq 300); do
    busy=$( { inC ss -tanH; inS ss -tanH; } | awk '$1 != "TIME-WAIT" && $1 != "LISTEN"' | wc -l)
    [[ $busy -eq 0 ]] && break
    sleep 0.1
  done
fi
# What is still in the relay reaches c0, then the capture's ring is flushed.
sleep "$(awk -v d="$DELAY" 'BEGIN { print 2 * d / 1000 + 1 }')"
kill -INT $CAP_PID 2>/dev/null || true
wait $CAP_PID 2>/dev/null || RC=$((RC ? RC : 4))
if [[ -n $CAPTURE_AS ]]; then
  for f in "$CAP_FILE" "$CAP_FILE.rudpscope.sqlite"; do [[ -e $f ]] && mv "$f" "$(dirname "$CAPTURE")/"; done
  chown root: "$CAPTURE"*
  rm -rf "$CAP_DIR"
fi
kill -TERM $RELAY_PID 2>/dev/null || true
wait $RELAY_PID 2>/dev/null || true
PIDS=()

get() { inR nft list counter netdev lab "$1" | awk '/packets/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i+1) }'; }
printf '{"loss_pct":%s,"delay_ms":%s,"seen_c2s":%s,"seen_s2c":%s,"drop_c2s":%s,"drop_s2c":%s}\n' \
  "$LOSS" "$DELAY" "$(get seen_c2s)" "$(get seen_s2c)" "$(get drop_c2s)" "$(get drop_s2c)" >"$OUT/nft.json"
if [[ $PROTO == tcp ]]; then
  inC nstat -asz --json >"$OUT/nstat-client.json"
  inS nstat -asz --json >"$OUT/nstat-server.json"
fi
log "nft: $(cat "$OUT/nft.json"); relay: $(cat "$OUT/relay.json"); exit $RC"
[[ $RC -eq 0 ]] || { echo "lab_cell.sh: $STACK failed (status $RC), see $LOG" >&2; exit 1; }
exit 0
