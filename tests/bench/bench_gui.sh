#!/usr/bin/env bash
# GUI benchmark: how fast an analysed capture is on screen, and how much
# memory the window holds, on simulated captures of about 1,000,000 and
# 10,000,000 packets (64 connections at 60 Hz each way, 1 % loss in bursts
# of 2 on average, so the Summary has stalls and loss problems to list).
#
# usage: tests/bench/bench_gui.sh [BUILD_DIR]      (default: build/release)
#   env: BENCH_GUI_DIR   where the captures and their databases are kept and
#                        reused between runs (default: BUILD_DIR/bench-gui;
#                        about 2.5 GB for both sizes)
#        BENCH_GUI_SIZES which captures (default "1m 10m")
#        BENCH_REPEAT    opens of each capture; the median time is reported
#                        (default 3)
#
# Each capture is made once with grudp-sim and analysed once with
# rudpscope-cli (the 10M one takes minutes); later runs reuse both. The
# measurement is gui-open-bench (tests/gui/app/gui_open_bench.cpp) on the
# offscreen platform: the real MainWindow opening the capture, finding its
# database complete and matching (content hash, thresholds), reading the
# overview on a worker thread and painting the Summary and Connections
# pages; then the worst connection's Timeline and Statistics pages.
# Builds nothing: build the targets grudp-sim, rudpscope-cli and
# gui-open-bench in BUILD_DIR first.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-build/release}"
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
SIM="$BUILD/tests/sim/grudp-sim"
CLI="$BUILD/analysis/cli/rudpscope-cli"
OPEN="$BUILD/tests/gui/app/gui-open-bench"
DIR="${BENCH_GUI_DIR:-$BUILD/bench-gui}"
SIZES="${BENCH_GUI_SIZES:-1m 10m}"
REPEAT="${BENCH_REPEAT:-3}"

die() { echo "bench_gui: error: $*" >&2; exit 2; }
[[ -x "$SIM" ]] || die "grudp-sim not found at $SIM (build target grudp-sim in $BUILD first)"
[[ -x "$CLI" ]] || die "rudpscope-cli not found at $CLI (build target rudpscope-cli in $BUILD first)"
[[ -x "$OPEN" ]] || die "gui-open-bench not found at $OPEN (build target gui-open-bench in $BUILD first)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required: apt-get install time"
mkdir -p "$DIR"

# shellcheck source=tests/bench/gui_captures.sh
source "$ROOT/tests/bench/gui_captures.sh"

# measure SIZE: opens the capture $REPEAT times; prints one result line.
measure() {
  local size=$1 pcap="$DIR/gui-$1-loss.pcap" out="$DIR/open-$1" i opens=() peak=0 rss
  for ((i = 0; i < REPEAT; i++)); do
    /usr/bin/time -v -o "$out.time" env QT_QPA_PLATFORM=offscreen "$OPEN" "$pcap" > "$out.txt" 2> "$out.err" \
      || { cat "$out.err" >&2; die "gui-open-bench failed on $pcap"; }
    if [[ "$(field reused_database "$out.txt")" != yes ]]; then
      # A database of another schema or other thresholds: the window analysed
      # again (and replaced it); that open is not the one measured.
      echo "  ($size: the database did not match and was re-made by the window; measuring again)" >&2
      ((i--)) || true
      continue
    fi
    opens+=("$(field open_to_connections_painted_ms "$out.txt")")
    rss="$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out.time")"
    ((rss > peak)) && peak=$rss
  done
  local median
  median="$(printf '%s\n' "${opens[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
  printf "%-5s %10s %7s %9s %13s %13s %13s %12s\n" "$size" "$(field packets "$out.txt")" \
    "$(field connections "$out.txt")" "$(field problems "$out.txt")" "$median" \
    "$(field timeline_painted_ms "$out.txt")" "$(field statistics_painted_ms "$out.txt")" \
    "$((peak / 1024))"
  echo "$size $median $((peak / 1024))" >> "$DIR/results"
}

for size in $SIZES; do prepare "$size"; done
: > "$DIR/results"
echo "GUI open of an analysed capture (median of $REPEAT; offscreen; $(nproc) cores)"
printf "%-5s %10s %7s %9s %13s %13s %13s %12s\n" size packets conns problems "summary+conn" timeline statistics "peak RSS"
printf "%-5s %10s %7s %9s %13s %13s %13s %12s\n" "" "" "" "" "ms" "ms" "ms" "MB"
for size in $SIZES; do measure "$size"; done
echo
echo "goals: summary and connections on screen < 1000 ms; peak RSS with the 10m capture open < 500 MB"
awk '{ printf "  %-4s on screen %5d ms %s   peak RSS %4d MB %s\n", $1, $2, ($2 < 1000 ? "ok" : "OVER"), $3,
       ($1 != "10m" ? "" : ($3 < 500 ? "ok" : "OVER")) }' "$DIR/results"
