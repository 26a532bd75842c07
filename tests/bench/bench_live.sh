#!/usr/bin/env bash
# Live-capture benchmark: rudpscope-cli capture on loopback while the GRUDP
# reference endpoints (tests/endpoint) generate a game server's load.
#   1. sustained: about 100,000 packets/s for LIVE_SECONDS (default 30): packets
#      on the wire (the endpoints' own counts), packets captured and analysed,
#      kernel and interface drops (pcap_stats), CPU and peak memory of the capture;
#   2. ramp: 10 s at each rate of RAMP_K (thousands of packets/s) to find where
#      drops begin;
#   3. the window: the same load captured by `rudpscope --capture lo` (offscreen),
#      its CPU and peak memory, and its drops (from the database it leaves).
# Needs root (capture on lo). Builds nothing.
#
# usage: tests/bench/bench_live.sh [BUILD_DIR]   (default: build/release, else build/dev)
#   env: LIVE_SECONDS (30), RAMP_K ("100 150 200 250 300"), BENCH_TMP (mktemp -d),
#        CAPTURE_AS (a wireshark-group user: capture as it, through dumpcap; default: as root, libpcap)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-}"
if [[ -z "$BUILD" ]]; then BUILD=build/release; [[ -x "$ROOT/$BUILD/analysis/cli/rudpscope-cli" ]] || BUILD=build/dev; fi
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
CLI="$BUILD/analysis/cli/rudpscope-cli"
APP="$BUILD/app/rudpscope"
EP="$BUILD/tests/endpoint/grudp-endpoint"
SECONDS_SUSTAINED="${LIVE_SECONDS:-30}"
RAMP_K="${RAMP_K:-100 150 200 250 300}"
PORT=47300

die() { echo "bench_live: error: $*" >&2; exit 2; }
[[ -x "$CLI" ]] || die "rudpscope-cli not found at $CLI"
[[ -x "$EP" ]] || die "grudp-endpoint not found at $EP (build target grudp-endpoint)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required: apt-get install time"
command -v sqlite3 >/dev/null || die "sqlite3 is required"
TMP="${BENCH_TMP:-$(mktemp -d -t rudpscope-bench-live.XXXXXX)}"
mkdir -p "$TMP"
[[ -n "${BENCH_TMP:-}" ]] || trap 'rm -rf "$TMP"' EXIT

AS=() WAY="as root, libpcap in the process"
if [[ -n "${CAPTURE_AS:-}" ]]; then
  AS=(setpriv --reuid="$CAPTURE_AS" --regid="$CAPTURE_AS" --init-groups) WAY="as $CAPTURE_AS, through dumpcap"
  chmod 0777 "$TMP"
fi

# Clients at 1 kHz for a total rate in packets/s: each sends ~950/s, the server as many back.
clients_for() { echo $(( ($1 + 1899) / 1900 )); }

# Runs the endpoints for $2 seconds at $1 packets/s; prints the packets they wrote to the wire.
run_load() {
  local rate=$1 secs=$2 clients
  clients=$(clients_for "$rate")
  "$EP" server --port $PORT --exit-after-clients --tick-hz 1000 2>"$TMP/server.err" &
  local server=$!
  sleep 0.2
  "$EP" client --server 127.0.0.1:$PORT --clients "$clients" --tick-hz 1000 --duration "$secs" 2>"$TMP/client.err"
  wait $server
  local s c
  s=$(grep -o 'wire [0-9]*' "$TMP/server.err" | awk '{print $2}')
  c=$(grep -o 'wire [0-9]*' "$TMP/client.err" | awk '{print $2}')
  echo $(( s + c ))
}

wait_for_file() { for _ in $(seq 200); do [[ -e "$1" ]] && return 0; sleep 0.05; done; die "capture did not start ($1)"; }

# One measured capture: prints "wire captured kernel_drops interface_drops cpu_s wall_s rss_mb".
measure_cli() {
  local rate=$1 secs=$2 out="$TMP/cap-$1.pcapng"
  rm -f "$out" "$out".*
  /usr/bin/time -f "%U %S %e %M" -o "$TMP/time" \
    "${AS[@]}" "$CLI" capture -i lo -f "udp port $PORT" -w "$out" --duration $(( secs + 4 )) --json -q >"$TMP/cap.json" 2>"$TMP/cap.err" &
  local cap=$!
  wait_for_file "$out"
  local wire
  wire=$(run_load "$rate" "$secs")
  wait $cap || die "capture failed: $(cat "$TMP/cap.err")"
  python3 - "$TMP/cap.json" "$TMP/time" "$wire" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["capture"]
u, s, e, m = open(sys.argv[2]).read().split()[-4:]
print(sys.argv[3], c["packets"], c["live"]["kernel_drops"], c["live"]["interface_drops"],
      round(float(u) + float(s), 2), e, round(int(m) / 1024))
PY
}

report() {  # label, then the fields of measure_*
  local label=$1 wire=$2 got=$3 kd=$4 ifd=$5 cpu=$6 wall=$7 rss=$8
  printf "%-28s wire %9d  captured %9d  missing %6d  kernel drops %6d  if drops %d  cpu %6.1f s / %5.1f s wall  peak %5d MB\n" \
    "$label" "$wire" "$got" $(( wire - got )) "$kd" "$ifd" "$cpu" "$wall" "$rss"
}

echo "== rudpscope-cli capture on lo ($WAY), $BUILD"
echo "-- sustained: ~100k packets/s for $SECONDS_SUSTAINED s"
read -r -a m <<<"$(measure_cli 100000 "$SECONDS_SUSTAINED")"
report "100k/s x ${SECONDS_SUSTAINED}s" "${m[@]}"
echo "   packets/s analysed: $(( m[1] / SECONDS_SUSTAINED )) (the capture also ran 4 s idle around the load)"

echo "-- ramp: 10 s per rate"
first_drop=""
for k in $RAMP_K; do
  read -r -a m <<<"$(measure_cli $(( k * 1000 )) 10)"
  report "${k}k/s x 10s" "${m[@]}"
  if [[ -z "$first_drop" && ( ${m[2]} -gt 0 || ${m[0]} -ne ${m[1]} ) ]]; then first_drop=$k; fi
done
if [[ -n "$first_drop" ]]; then echo "   drops begin at: ${first_drop}k packets/s"; else echo "   drops begin at: none up to the highest rate tried"; fi
echo "   (on lo the kernel sees each packet twice, sent and received, and counts both copies' drops; libpcap keeps one)"

if [[ -x "$APP" ]]; then
  echo "-- the window: rudpscope --capture lo, offscreen, ~100k packets/s for $SECONDS_SUSTAINED s"
  out="$TMP/gui.pcapng"
  ( cd "$TMP" && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$TMP" HOME="$TMP" /usr/bin/time -f "%U %S %e %M" -o "$TMP/gui.time" \
      "${AS[@]}" "$APP" --capture lo --capture-filter "udp port $PORT" --capture-output "$out" \
      --capture-duration $(( SECONDS_SUSTAINED + 4 )) --quit-after-load >"$TMP/gui.out" 2>&1 ) &
  gui=$!
  wait_for_file "$out"
  wire=$(run_load 100000 "$SECONDS_SUSTAINED")
  wait $gui || die "the window failed: $(tail -3 "$TMP/gui.out")"
  db="$out.rudpscope.sqlite"
  read -r u s e mem <"$TMP/gui.time"
  report "window 100k/s x ${SECONDS_SUSTAINED}s" "$wire" "$(sqlite3 "$db" 'SELECT packet_count FROM capture')" \
    "$(sqlite3 "$db" 'SELECT kernel_drops FROM live_capture')" "$(sqlite3 "$db" 'SELECT interface_drops FROM live_capture')" \
    "$(awk "BEGIN{print $u + $s}")" "$e" $(( mem / 1024 ))
else
  echo "-- the window: $APP not built, skipped"
fi
