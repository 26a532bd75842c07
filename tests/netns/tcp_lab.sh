#!/usr/bin/env bash
# Real Linux TCP under controlled loss, captured at both ends, with the
# kernel's own counters as the truth. See tests/netns/README.md.
#
#   client ns            router ns                     server ns
#   c0 10.77.1.2 <-veth-> r1 10.77.1.1 | r2 10.77.2.1 <-veth-> s0 10.77.2.2
#                        nft forward: numgen random drop per direction
# or, with --topology direct (a LAN: same TTLs, round trips of microseconds),
#   c0 10.77.1.2 <-veth-> s0 10.77.1.3, drops on the receivers' input hooks.
#
# Usage: tcp_lab.sh --out DIR [--loss PCT | --loss-c2s PCT --loss-s2c PCT]
#                   [--nagle on|off] [--duration S] [--drop-at router|endpoints]
#                   [--offloads off|on] [--port N] [--seed N] [--cc NAME]
#                   [--topology routed|direct]
# Writes into DIR: client.pcap (captured on c0 in the client namespace),
# server.pcap (on s0 in the server namespace), truth.json, nstat-*.json,
# ss-*.txt, workload-*.json, reads-*.txt (each application's reads), nft-*.txt,
# offloads.txt, lab.log.
# Exit status: 0 ok, 77 cannot run here (not root / no netns / missing tool),
# anything else: the lab failed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT="" LOSS_C2S=0 LOSS_S2C=0 NAGLE=off DURATION=15 DROP_AT=router OFFLOADS=off
PORT=7777 SEED=1 CC="" TOPOLOGY=routed

usage() { sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --loss) LOSS_C2S=$2; LOSS_S2C=$2; shift 2 ;;
    --loss-c2s) LOSS_C2S=$2; shift 2 ;;
    --loss-s2c) LOSS_S2C=$2; shift 2 ;;
    --nagle) NAGLE=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --drop-at) DROP_AT=$2; shift 2 ;;
    --offloads) OFFLOADS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --cc) CC=$2; shift 2 ;;
    --topology) TOPOLOGY=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "tcp_lab.sh: unknown argument $1" >&2; usage ;;
  esac
done
[[ -n $OUT ]] || usage
[[ $NAGLE == on || $NAGLE == off ]] || usage
[[ $DROP_AT == router || $DROP_AT == endpoints ]] || usage
[[ $OFFLOADS == on || $OFFLOADS == off ]] || usage
[[ $TOPOLOGY == routed || $TOPOLOGY == direct ]] || usage
# Without a router the only place to drop is the receivers' input hook.
[[ $TOPOLOGY == direct ]] && DROP_AT=endpoints

skip() { echo "tcp_lab.sh: SKIP: $*" >&2; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "needs root (network namespaces, nftables, capture)"
for t in ip nft tcpdump nstat ss cc; do
  command -v "$t" >/dev/null || skip "$t not installed"
done

# Loss in percent -> nft per-mille threshold (numgen random mod 1000 < N).
permille() { awk -v p="$1" 'BEGIN { v = int(p * 10 + 0.5); if (v < 0 || v > 1000) exit 1; print v }'; }
PM_C2S=$(permille "$LOSS_C2S") || usage
PM_S2C=$(permille "$LOSS_S2C") || usage

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/lab.log
: >"$LOG"
log() { echo "[$(date +%T.%N | cut -c1-12)] $*" | tee -a "$LOG" >&2; }

# Helpers are built by the script itself so it runs by hand as well.
BIN=${TCP_LAB_BIN:-$OUT/bin}
mkdir -p "$BIN"
for p in tcp_workload veth_offload; do
  if [[ ! -x $BIN/$p || $HERE/$p.c -nt $BIN/$p ]]; then
    cc -O2 -Wall -o "$BIN/$p.tmp.$$" "$HERE/$p.c" || { echo "tcp_lab.sh: cannot build $p" >&2; exit 1; }
    mv -f "$BIN/$p.tmp.$$" "$BIN/$p"
  fi
done

# shellcheck source=../netns/three_ns.sh
source "$HERE/three_ns.sh"
if [[ $TOPOLOGY == routed ]]; then three_ns_setup rsc 77; else two_ns_setup rsc 77; fi
ROUTED=false; [[ $TOPOLOGY == routed ]] && ROUTED=true
if [[ -n $CC ]]; then
  inC sysctl -qw net.ipv4.tcp_congestion_control="$CC"
  inS sysctl -qw net.ipv4.tcp_congestion_control="$CC"
fi
CC_USED=$(inC sysctl -n net.ipv4.tcp_congestion_control)

# Offloads: veth defaults to checksum offload + TSO/GSO; a capture then sees
# 64 KB super-frames with unfilled checksums, while TcpRetransSegs counts
# MSS-sized segments. Turn them off on every veth (ethtool's ioctls).
: >"$OUT/offloads.txt"
if [[ $OFFLOADS == off ]]; then
  inC "$BIN/veth_offload" c0 >>"$OUT/offloads.txt"
  $ROUTED && inR "$BIN/veth_offload" r1 r2 >>"$OUT/offloads.txt"
  inS "$BIN/veth_offload" s0 >>"$OUT/offloads.txt"
else
  echo "offloads left at the veth defaults" >>"$OUT/offloads.txt"
fi

# Loss. router: drop in the router's forward hook, so the receiver's capture
# misses what was lost. endpoints: drop on the receiver's input hook, which
# runs after its capture tap, so both captures see every copy.
$ROUTED && inR nft -f - <<EOF
table inet lab {
  counter seen_c2s { }
  counter seen_s2c { }
  counter drop_c2s { }
  counter drop_s2c { }
  chain forward_loss {
    type filter hook forward priority 0; policy accept;
    ip saddr $C_IP meta l4proto tcp counter name seen_c2s
    ip saddr $S_IP meta l4proto tcp counter name seen_s2c
$( if [[ $DROP_AT == router ]]; then
  echo "    ip saddr $C_IP meta l4proto tcp numgen random mod 1000 < $PM_C2S counter name drop_c2s drop"
  echo "    ip saddr $S_IP meta l4proto tcp numgen random mod 1000 < $PM_S2C counter name drop_s2c drop"
fi )
  }
}
EOF
if [[ $DROP_AT == endpoints ]]; then
  inS nft -f - <<EOF
table inet lab {
  counter drop_c2s { }
  chain inp {
    type filter hook input priority 0; policy accept;
    ip saddr $C_IP meta l4proto tcp numgen random mod 1000 < $PM_C2S counter name drop_c2s drop
  }
}
EOF
  inC nft -f - <<EOF
table inet lab {
  counter drop_s2c { }
  chain inp {
    type filter hook input priority 0; policy accept;
    ip saddr $S_IP meta l4proto tcp numgen random mod 1000 < $PM_S2C counter name drop_s2c drop
  }
}
EOF
fi
$ROUTED && inR nft list ruleset >"$OUT/nft-rules-router.txt"
if [[ $DROP_AT == endpoints ]]; then
  { inC nft list ruleset; inS nft list ruleset; } >"$OUT/nft-rules-endpoints.txt"
fi

# Warm up neighbour entries so no ARP happens while the workload runs.
inC ping -c1 -W2 $S_IP >/dev/null 2>&1 || inC ping -c1 -W2 $S_IP >/dev/null 2>&1 || true
inS ping -c1 -W2 $C_IP >/dev/null 2>&1 || true

COUNTERS="TcpRetransSegs TcpOutSegs TcpInSegs TcpActiveOpens TcpPassiveOpens \
TcpExtTCPSynRetrans TcpExtTCPLostRetransmit TcpExtTCPFastRetrans \
TcpExtTCPSlowStartRetrans TcpExtTCPTimeouts TcpExtTCPSpuriousRTOs \
TcpExtTCPLossProbes TcpExtTCPLossProbeRecovery TcpExtTCPSackRecovery \
TcpExtTCPRenoRecovery TcpExtTCPRetransFail TcpExtTCPDSACKRecv \
TcpExtTCPDSACKOfoRecv TcpExtTCPDSACKOldSent TcpExtTCPDSACKOfoSent \
TcpExtTCPDSACKUndo TcpExtTCPLossUndo TcpExtTCPFullUndo TcpExtTCPPartialUndo \
TcpExtTCPSpuriousRtxHostQueues TcpExtTCPSACKReorder TcpExtTCPTSReorder \
TcpExtTCPOFOQueue TcpExtTCPSackShifted TcpExtTCPSackMerged"
nstat_json() { ip netns exec "$1" nstat -asz --json; }
nstat_get() { # ns counter -> value (absolute; the namespace is new, so this is the delta)
  ip netns exec "$1" nstat -asz "$2" | awk -v c="$2" '$1 == c { print $2; f = 1 } END { if (!f) print 0 }'
}
nstat_json "$NC" >"$OUT/nstat-client-before.json"
nstat_json "$NS" >"$OUT/nstat-server-before.json"
declare -A BEFORE_C BEFORE_S
for c in $COUNTERS; do
  BEFORE_C[$c]=$(nstat_get "$NC" "$c")
  BEFORE_S[$c]=$(nstat_get "$NS" "$c")
done

# Captures: libpcap (tcpdump) on the end hosts' own veths, at the same time.
start_capture() { # ns iface file
  ip netns exec "$1" tcpdump -i "$2" -n -s 128 --immediate-mode -U -w "$3" tcp 2>"$3.stderr" &
  PIDS+=($!)
  for _ in $(seq 100); do grep -q "listening on" "$3.stderr" 2>/dev/null && return 0; sleep 0.05; done
  log "tcpdump on $2 did not start"; cat "$3.stderr" >&2; exit 1
}
start_capture "$NC" c0 "$OUT/client.pcap"
TCPDUMP_C=${PIDS[-1]}
start_capture "$NS" s0 "$OUT/server.pcap"
TCPDUMP_S=${PIDS[-1]}

ND=1; [[ $NAGLE == on ]] && ND=0
log "lab $$ ($TOPOLOGY): loss c2s ${LOSS_C2S}% s2c ${LOSS_S2C}% (drop at $DROP_AT), nagle $NAGLE, ${DURATION}s, cc $CC_USED, offloads $OFFLOADS"
TIMEOUT=$(awk -v d="$DURATION" 'BEGIN { printf "%d", d + 120 }')
inS "$BIN/tcp_workload" server "$PORT" --nodelay $ND --seed $((SEED * 2 + 1)) --timeout "$TIMEOUT" --read-log "$OUT/reads-server.txt" \
  >"$OUT/workload-server.json" 2>"$OUT/workload-server.stderr" &
SRV=$!
PIDS+=($SRV)
for _ in $(seq 100); do
  inS ss -ltnH "sport = :$PORT" | grep -q . && break
  sleep 0.05
done
T_START=$(date +%s.%N)
inC "$BIN/tcp_workload" client $S_IP "$PORT" --nodelay $ND --duration "$DURATION" \
  --seed $((SEED * 2)) --timeout "$TIMEOUT" --read-log "$OUT/reads-client.txt" >"$OUT/workload-client.json" 2>"$OUT/workload-client.stderr" &
CLI=$!
PIDS+=($CLI)

# ss -ti snapshot one second before the client stops sending.
SNAP_AT=$(awk -v d="$DURATION" 'BEGIN { print (d > 2 ? d - 1 : d / 2) }')
sleep "$SNAP_AT"
inC ss -tinoe >"$OUT/ss-client.txt" 2>&1 || true
inS ss -tinoe >"$OUT/ss-server.txt" 2>&1 || true

RC_C=0 RC_S=0
wait $CLI || RC_C=$?
wait $SRV || RC_S=$?
T_END=$(date +%s.%N)
# Wait until neither end has anything left to (re)send: only TIME-WAIT (and
# nothing at all) may remain. A lost last ACK makes the server resend its FIN.
for _ in $(seq 300); do
  busy=$( { inC ss -tanH; inS ss -tanH; } | awk '$1 != "TIME-WAIT" && $1 != "LISTEN"' | wc -l)
  [[ $busy -eq 0 ]] && break
  sleep 0.1
done
# Without this pause (and --immediate-mode) libpcap's TPACKET_V3 ring can
# still hold the last frames when tcpdump is told to stop, and they are lost.
sleep 1
[[ ${busy:-0} -eq 0 ]] || log "warning: sockets still busy after 30 s"

kill -INT $TCPDUMP_C $TCPDUMP_S 2>/dev/null || true
wait $TCPDUMP_C 2>/dev/null || true
wait $TCPDUMP_S 2>/dev/null || true
pcap_drops() { sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' "$1" | tail -1; }
pcap_captured() { sed -n 's/^\([0-9]*\) packets captured.*/\1/p' "$1" | tail -1; }
CAPDROP_C=$(pcap_drops "$OUT/client.pcap.stderr"); CAPDROP_C=${CAPDROP_C:-unknown}
CAPDROP_S=$(pcap_drops "$OUT/server.pcap.stderr"); CAPDROP_S=${CAPDROP_S:-unknown}

nstat_json "$NC" >"$OUT/nstat-client-after.json"
nstat_json "$NS" >"$OUT/nstat-server-after.json"
counter() { # ns name
  ip netns exec "$1" nft list counter inet lab "$2" 2>/dev/null |
    sed -n 's/.*packets \([0-9]*\) bytes.*/\1/p' | head -1
}
SEEN_C2S="" SEEN_S2C=""
if $ROUTED; then
  SEEN_C2S=$(counter "$NR" seen_c2s)
  SEEN_S2C=$(counter "$NR" seen_s2c)
fi
if [[ $DROP_AT == router ]]; then
  DROP_C2S=$(counter "$NR" drop_c2s)
  DROP_S2C=$(counter "$NR" drop_s2c)
else
  DROP_C2S=$(counter "$NS" drop_c2s)
  DROP_S2C=$(counter "$NC" drop_s2c)
fi
$ROUTED && inR nft list ruleset >"$OUT/nft-router-after.txt"
[[ $DROP_AT == endpoints ]] && { inC nft list ruleset; inS nft list ruleset; } >"$OUT/nft-endpoints-after.txt"

delta_obj() { # ns assoc-array-name-of-before
  local ns=$1 first=1 c v
  local -n before=$2
  printf '{'
  for c in $COUNTERS; do
    v=$(nstat_get "$ns" "$c")
    [[ $first -eq 1 ]] || printf ', '
    first=0
    printf '"%s": %d' "$c" $((v - ${before[$c]}))
  done
  printf '}'
}
DELTA_C=$(delta_obj "$NC" BEFORE_C)
DELTA_S=$(delta_obj "$NS" BEFORE_S)
RETR_C=$(( $(nstat_get "$NC" TcpRetransSegs) - ${BEFORE_C[TcpRetransSegs]} ))
RETR_S=$(( $(nstat_get "$NS" TcpRetransSegs) - ${BEFORE_S[TcpRetransSegs]} ))
WL_C=$(head -1 "$OUT/workload-client.json"); WL_C=${WL_C:-null}
WL_S=$(head -1 "$OUT/workload-server.json"); WL_S=${WL_S:-null}
num() { [[ $1 =~ ^[0-9]+$ ]] && echo "$1" || echo null; }

cat >"$OUT/truth.json" <<EOF
{
  "generator": "tests/netns/tcp_lab.sh",
  "config": {
    "loss_percent": {"client_to_server": $LOSS_C2S, "server_to_client": $LOSS_S2C},
    "nft_permille": {"client_to_server": $PM_C2S, "server_to_client": $PM_S2C},
    "drop_at": "$DROP_AT",
    "topology": "$TOPOLOGY",
    "nagle": $([[ $NAGLE == on ]] && echo true || echo false),
    "duration_s": $DURATION,
    "delay_ms": 0,
    "delay_note": "no netem in this kernel; no delay added (RTT is the veth/namespace RTT, tens of microseconds)",
    "offloads": "$OFFLOADS",
    "congestion_control": "$CC_USED",
    "client": "$C_IP", "server": "$S_IP:$PORT",
    "seed": $SEED
  },
  "captures": {
    "client": {"file": "client.pcap", "namespace": "client", "interface": "c0", "snaplen": 128, "pcap_dropped": $(num "$CAPDROP_C"), "pcap_captured": $(num "$(pcap_captured "$OUT/client.pcap.stderr")")},
    "server": {"file": "server.pcap", "namespace": "server", "interface": "s0", "snaplen": 128, "pcap_dropped": $(num "$CAPDROP_S"), "pcap_captured": $(num "$(pcap_captured "$OUT/server.pcap.stderr")")}
  },
  "directions": {
    "client_to_server": {
      "sender": "client",
      "TcpRetransSegs": $RETR_C,
      "dropped": $(num "$DROP_C2S"),
      "router_seen": $(num "$SEEN_C2S"),
      "sender_nstat_delta": $DELTA_C
    },
    "server_to_client": {
      "sender": "server",
      "TcpRetransSegs": $RETR_S,
      "dropped": $(num "$DROP_S2C"),
      "router_seen": $(num "$SEEN_S2C"),
      "sender_nstat_delta": $DELTA_S
    }
  },
  "workload": {"client": $WL_C, "server": $WL_S, "client_exit": $RC_C, "server_exit": $RC_S},
  "wall_time_s": $(awk -v a="$T_START" -v b="$T_END" 'BEGIN { printf "%.3f", b - a }')
}
EOF
log "truth: c2s retrans $RETR_C dropped $DROP_C2S; s2c retrans $RETR_S dropped $DROP_S2C; pcap drops $CAPDROP_C/$CAPDROP_S"
if [[ $RC_C -ne 0 || $RC_S -ne 0 ]]; then
  log "workload failed: client exit $RC_C, server exit $RC_S"
  cat "$OUT/workload-client.stderr" "$OUT/workload-server.stderr" >&2
  exit 1
fi
exit 0
