#!/usr/bin/env bash
# Ingest benchmark: rudpscope-cli analyze vs. tshark + the Lua dissector.
#
# usage: tests/bench/bench_ingest.sh [BUILD_DIR]      (default: build/release)
#   env: BENCH_TMP     where to put the captures (default: mktemp -d, removed after)
#        TSHARK_ON     which capture tshark reads: 1m (default) or 100k (then the
#                      rate is measured on 100k packets and labelled as such)
#        BENCH_CONNS   connections in the generated traffic (default 50)
#        GRUDP_LUA     dissector to load (default: dissectors/grudp.lua)
#        BENCH_REPEAT  runs of each rudpscope measurement; the median is
#                      reported (default 3: this machine's neighbours make
#                      single runs vary by 20 %)
#        BENCH_SIZES   captures to measure (default "100k 1m"; add 10m for
#                      issue 14's flat-memory check: 1.5 GB of capture and
#                      about 2 minutes a run)
#
# Builds nothing: it uses BUILD_DIR/tests/sim/grudp-sim and
# BUILD_DIR/analysis/cli/rudpscope-cli as they are.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-build/release}"
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
SIM="$BUILD/tests/sim/grudp-sim"
CLI="$BUILD/analysis/cli/rudpscope-cli"
LUA="${GRUDP_LUA:-$ROOT/dissectors/grudp.lua}"
TSHARK_ON="${TSHARK_ON:-1m}"
CONNS="${BENCH_CONNS:-50}"

die() { echo "bench_ingest: error: $*" >&2; exit 2; }

# Check every prerequisite before spending minutes generating captures.
[[ -x "$SIM" ]] || die "grudp-sim not found at $SIM (build target grudp-sim in $BUILD first)"
[[ -x "$CLI" ]] || die "rudpscope-cli not found at $CLI (build target rudpscope-cli in $BUILD first)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required: apt-get install time"
command -v tshark >/dev/null || die "tshark is required"
[[ -f "$LUA" ]] || die "Lua dissector not found at $LUA"
[[ "$TSHARK_ON" == 1m || "$TSHARK_ON" == 100k ]] || die "TSHARK_ON must be 1m or 100k"

if [[ -n "${BENCH_TMP:-}" ]]; then
  TMP="$BENCH_TMP"; mkdir -p "$TMP"
else
  TMP="$(mktemp -d -t rudpscope-bench.XXXXXX)"
  trap 'rm -rf "$TMP"' EXIT
fi

# GNU time reports wall time in centiseconds only, so wall time is taken
# with date(1) around the run and only the peak RSS comes from `time -v`.
now_s() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
peak_rss_kb() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }
REPEAT="${BENCH_REPEAT:-3}"

# median_run TIMEFILE CMD...: runs CMD $REPEAT times under time -v, leaves
# the median run's report in TIMEFILE and prints its wall seconds.
median_run() {
  local out=$1; shift
  local walls=() i t0
  for ((i = 0; i < REPEAT; i++)); do
    t0="$(now_s)"
    /usr/bin/time -v -o "$out.$i" "$@" > "$out.log.$i" 2>&1 || { cat "$out.log.$i" >&2; return 1; }
    walls+=("$(elapsed "$t0" "$(now_s)") $i")
  done
  local mid
  mid=$(printf '%s\n' "${walls[@]}" | sort -n | awk -v m=$((REPEAT / 2)) 'NR == m + 1 { print $2 }')
  cp "$out.$mid" "$out"
  printf '%s\n' "${walls[@]}" | sort -n | awk -v m=$((REPEAT / 2)) 'NR == m + 1 { print $1 }'
}

declare -A FRAMES WALL RSS RATE
read -r -a SIZES <<< "${BENCH_SIZES:-100k 1m}"
declare -A TARGET=([100k]=100000 [1m]=1000000 [10m]=10000000)
for size in "${SIZES[@]}"; do [[ -n "${TARGET[$size]:-}" ]] || die "BENCH_SIZES: unknown size '$size' (100k, 1m, 10m)"; done
[[ " ${SIZES[*]} " == *" 1m "* ]] || die "BENCH_SIZES must include 1m (the --no-analysis and -j runs use it)"
[[ " ${SIZES[*]} " == *" $TSHARK_ON "* ]] || die "BENCH_SIZES must include $TSHARK_ON (TSHARK_ON)"

for size in "${SIZES[@]}"; do
  pcap="$TMP/bench_$size.pcap"
  echo "== generating ~${TARGET[$size]} packets ($CONNS connections, 1% loss, bursts 2) -> $pcap"
  "$SIM" --out "$pcap" --connections "$CONNS" --packets "${TARGET[$size]}" --seed 1 \
    --loss 0.01 --burst 2 --jitter-ms 3 --reorder 0.005 2> "$TMP/sim_$size.log"
  cat "$TMP/sim_$size.log"
  FRAMES[$size]="$(awk '/frames/ {print $2; exit}' "$TMP/sim_$size.log")"

  echo "== rudpscope-cli analyze ($size)"
  rm -f "$TMP/out_$size.sqlite"
  WALL[$size]="$(median_run "$TMP/time_cli_$size.txt" "$CLI" analyze "$pcap" --db "$TMP/out_$size.sqlite")" \
    || die "rudpscope-cli analyze failed on $pcap"
  RSS[$size]="$(peak_rss_kb "$TMP/time_cli_$size.txt")"
  RATE[$size]="$(awk -v n="${FRAMES[$size]}" -v t="${WALL[$size]}" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')"
  echo "   ${FRAMES[$size]} packets in ${WALL[$size]} s, ${RATE[$size]} packets/s, peak RSS ${RSS[$size]} kB"
done

# What connection analysis adds to ingest: the 1M capture again with
# --no-analysis (packet index and connections only), and CPU seconds of both.
cpu_s() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u + s}' "$1"; }
echo "== rudpscope-cli analyze --no-analysis (1m)"
NWALL="$(median_run "$TMP/time_noana.txt" "$CLI" analyze "$TMP/bench_1m.pcap" --db "$TMP/noana.sqlite" --no-analysis)" \
  || die "rudpscope-cli analyze --no-analysis failed"
NCPU="$(cpu_s "$TMP/time_noana.txt")"
FCPU="$(cpu_s "$TMP/time_cli_1m.txt")"
OVER_WALL="$(awk -v a="${WALL[1m]}" -v b="$NWALL" 'BEGIN { printf "%.0f", (b > 0 ? (a / b - 1) * 100 : 0) }')"
OVER_CPU="$(awk -v a="$FCPU" -v b="$NCPU" 'BEGIN { printf "%.0f", (b > 0 ? (a / b - 1) * 100 : 0) }')"

# What the other cores buy: the 1M capture on one thread (-j1), against the
# default (one dissector lane per core) measured above.
echo "== rudpscope-cli analyze -j1 (1m)"
J1WALL="$(median_run "$TMP/time_j1.txt" "$CLI" analyze "$TMP/bench_1m.pcap" --db "$TMP/j1.sqlite" -j 1)" \
  || die "rudpscope-cli analyze -j1 failed"
SCALE="$(awk -v a="$J1WALL" -v b="${WALL[1m]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"

# Where the CPU goes by thread (issue 14: the busiest thread's share of the
# work should be at most 1/lanes + 10 %), at one lane and at two.
echo "== per-thread CPU, rudpscope-cli analyze (1m) -j1 and -j2"
for lanes in 1 2; do
  python3 "$ROOT/tests/bench/thread_cpu.py" -- "$CLI" analyze "$TMP/bench_1m.pcap" --db "$TMP/threads.sqlite" \
    --quiet -j "$lanes" > /dev/null 2> "$TMP/threads_j$lanes.txt" || { cat "$TMP/threads_j$lanes.txt" >&2; die "analyze -j $lanes failed"; }
done

echo "== tshark + grudp.lua on the $TSHARK_ON capture"
tpcap="$TMP/bench_$TSHARK_ON.pcap"
t0="$(now_s)"
/usr/bin/time -v -o "$TMP/time_tshark.txt" \
  tshark -r "$tpcap" -X "lua_script:$LUA" -T fields -e grudp.seq > /dev/null 2> "$TMP/tshark.log" \
  || { cat "$TMP/tshark.log" >&2; die "tshark failed"; }
TWALL="$(elapsed "$t0" "$(now_s)")"
TRSS="$(peak_rss_kb "$TMP/time_tshark.txt")"
TFRAMES="${FRAMES[$TSHARK_ON]}"
TRATE="$(awk -v n="$TFRAMES" -v t="$TWALL" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')"
RATIO="$(awk -v a="${RATE[$TSHARK_ON]}" -v b="$TRATE" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')"

echo
echo "================ ingest benchmark ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), rudpscope: median of $REPEAT runs) ================"
printf "%-34s %12s %10s %14s %14s\n" "tool / capture" "packets" "wall s" "packets/s" "peak RSS MB"
for size in "${SIZES[@]}"; do
  printf "%-34s %12s %10s %14s %14.1f\n" "rudpscope-cli analyze ($size)" "${FRAMES[$size]}" \
    "${WALL[$size]}" "${RATE[$size]}" "$(awk -v k="${RSS[$size]}" 'BEGIN { print k / 1024 }')"
done
printf "%-34s %12s %10s %14s %14.1f\n" "tshark -X grudp.lua ($TSHARK_ON)" "$TFRAMES" "$TWALL" "$TRATE" \
  "$(awk -v k="$TRSS" 'BEGIN { print k / 1024 }')"
echo "rudpscope-cli / tshark packets/s ratio (both on $TSHARK_ON): ${RATIO}x"
small="${SIZES[0]}" large="${SIZES[${#SIZES[@]} - 1]}"
echo "peak RSS ${large} / ${small}: $(awk -v a="${RSS[$large]}" -v b="${RSS[$small]}" 'BEGIN { printf "%.2f", a / b }')x" \
     "for $(awk -v a="${FRAMES[$large]}" -v b="${FRAMES[$small]}" 'BEGIN { printf "%.0f", a / b }')x the packets"
echo "connection analysis on 1m: ${WALL[1m]} s vs ${NWALL} s without (+${OVER_WALL}% wall);" \
     "CPU ${FCPU} s vs ${NCPU} s (+${OVER_CPU}%)"
echo "-j1 on 1m: ${J1WALL} s; the default (-j$(nproc)) is ${SCALE}x faster"
for lanes in 1 2; do
  echo "per-thread CPU at -j$lanes (1m, one run):"
  sed 's/^/  /' "$TMP/threads_j$lanes.txt"
done
