# Sourced by the lab scripts (tests/netns/tcp_lab.sh, tests/kcp_enet/lab.sh):
# three network namespaces, client - router - server, joined by two veth
# pairs and routed through the router, removed again on exit.
#
#   three_ns_setup PREFIX OCTET    # e.g. three_ns_setup rsc 77 -> 10.77.1.0/24, 10.77.2.0/24
#   two_ns_setup PREFIX OCTET      # client and server on one veth pair, 10.OCTET.1.0/24, no router
#
# Needs $LOG and a skip() function. Defines NC NR NS (namespace names),
# C_IP R1_IP R2_IP S_IP, PIDS (background pids to stop on exit) and
# inC / inR / inS (run a command in a namespace, on CPU $LAB_CPU). Interfaces: c0 (client),
# r1 and r2 (router), s0 (server).

three_ns_cleanup() {
  local rc=$?
  set +e
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  for n in $NC $NR $NS; do
    if ip netns list | grep -qw "$n"; then
      for p in $(ip netns pids "$n" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
      ip netns del "$n" 2>/dev/null
    fi
  done
  exit $rc
}

# Every lab process runs on one CPU (LAB_CPU, default 0). veth hands a packet
# to the receiving side's backlog on the CPU that sent it, so two senders
# on two CPUs (an application write on one, a retransmission timer on the
# other) can reorder a path that is otherwise one FIFO. Seen once in a TCP
# lab run before pinning; see tests/netns/README.md.
PIN=()
if command -v taskset >/dev/null; then PIN=(taskset -c "${LAB_CPU:-0}"); fi
inC() { ip netns exec "$NC" "${PIN[@]}" "$@"; }
inR() { ip netns exec "$NR" "${PIN[@]}" "$@"; }
inS() { ip netns exec "$NS" "${PIN[@]}" "$@"; }

three_ns_setup() {
  local prefix=$1 octet=$2
  NC=$prefix-c-$$ NR=$prefix-r-$$ NS=$prefix-s-$$
  C_IP=10.$octet.1.2 R1_IP=10.$octet.1.1 R2_IP=10.$octet.2.1 S_IP=10.$octet.2.2
  PIDS=()
  trap three_ns_cleanup EXIT
  trap 'exit 130' INT TERM

  ip netns add "$NC" 2>>"$LOG" || skip "ip netns add refused (no CAP_SYS_ADMIN?)"
  ip netns add "$NR"
  ip netns add "$NS"
  ip link add c0 netns "$NC" type veth peer name r1 netns "$NR"
  ip link add r2 netns "$NR" type veth peer name s0 netns "$NS"
  inC ip addr add "$C_IP/24" dev c0
  inR ip addr add "$R1_IP/24" dev r1
  inR ip addr add "$R2_IP/24" dev r2
  inS ip addr add "$S_IP/24" dev s0
  for n in $NC $NR $NS; do ip -n "$n" link set lo up; done
  inC ip link set c0 up
  inR ip link set r1 up
  inR ip link set r2 up
  inS ip link set s0 up
  inC ip route add default via "$R1_IP"
  inS ip route add default via "$R2_IP"
  inR sysctl -qw net.ipv4.ip_forward=1
}

# A LAN: the client and the server joined by one veth pair, on one subnet, so
# neither end's packets are routed (TTLs stay at their initial value). NR is
# empty and inR must not be used. Interfaces: c0 (client), s0 (server).
two_ns_setup() {
  local prefix=$1 octet=$2
  NC=$prefix-c-$$ NR="" NS=$prefix-s-$$
  C_IP=10.$octet.1.2 S_IP=10.$octet.1.3
  PIDS=()
  trap three_ns_cleanup EXIT
  trap 'exit 130' INT TERM

  ip netns add "$NC" 2>>"$LOG" || skip "ip netns add refused (no CAP_SYS_ADMIN?)"
  ip netns add "$NS"
  ip link add c0 netns "$NC" type veth peer name s0 netns "$NS"
  inC ip addr add "$C_IP/24" dev c0
  inS ip addr add "$S_IP/24" dev s0
  for n in $NC $NS; do ip -n "$n" link set lo up; done
  inC ip link set c0 up
  inS ip link set s0 up
}
