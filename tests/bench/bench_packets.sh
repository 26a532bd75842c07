#!/usr/bin/env bash
# Packets page benchmark: the packet list over simulated game-server captures
# of about 1,000,000 and 10,000,000 packets (the captures of bench_gui.sh:
# 64 connections at 60 Hz each way, 1 % loss in bursts of 2).
#
# usage: tests/bench/bench_packets.sh [BUILD_DIR]     (default: build/release)
#   env: BENCH_GUI_DIR   where the captures and their databases are kept and
#                        reused (default: BUILD_DIR/bench-gui, shared with
#                        bench_gui.sh; about 2.5 GB for both sizes)
#        BENCH_GUI_SIZES which captures (default "1m 10m")
#
# Each capture is made once with grudp-sim and analysed once with
# rudpscope-cli; later runs reuse both. The measurement is packets-bench
# (tests/gui/pages/packets_bench.cpp) on the offscreen platform: the real
# Packets page opening the database, the last frame's stream items (the
# capture replayed in the background from its first frame), 100 jumps to
# random frames (select, dissect the details, paint), 600 wheel steps of 3
# rows and 600 page steps,
# each painted; then the process's memory. Then the display filter bar: a
# filter over stored columns (answered by the database) and one over GRUDP
# fields (the capture read again), each from Enter to done; the second is
# run beside `tshark -Y` with the same filter on the same file (tshark
# prints nothing but the count, -T fields -e frame.number piped to wc).
# Builds nothing: build grudp-sim, rudpscope-cli and packets-bench first.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-build/release}"
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
SIM="$BUILD/tests/sim/grudp-sim"
CLI="$BUILD/analysis/cli/rudpscope-cli"
BENCH="$BUILD/tests/gui/pages/packets-bench"
DIR="${BENCH_GUI_DIR:-$BUILD/bench-gui}"
SIZES="${BENCH_GUI_SIZES:-1m 10m}"

die() { echo "bench_packets: error: $*" >&2; exit 2; }
[[ -x "$SIM" ]] || die "grudp-sim not found at $SIM (build target grudp-sim in $BUILD first)"
[[ -x "$CLI" ]] || die "rudpscope-cli not found at $CLI (build target rudpscope-cli in $BUILD first)"
[[ -x "$BENCH" ]] || die "packets-bench not found at $BENCH (build target packets-bench in $BUILD first)"
mkdir -p "$DIR"

# shellcheck source=tests/bench/gui_captures.sh
source "$ROOT/tests/bench/gui_captures.sh"

for size in $SIZES; do prepare "$size"; done
echo "Packets page over an analysed capture (offscreen, 1400x900, $(nproc) cores); times in ms"
printf "%-5s %10s %6s | %-21s | %-21s | %-21s | %5s %5s\n" size packets open "jump med/p95/max" \
  "wheel med/p95/max" "page med/p95/max" RSS peak
for size in $SIZES; do
  pcap="$DIR/gui-$size-loss.pcap" out="$DIR/packets-$size.txt"
  QT_QPA_PLATFORM=offscreen "$BENCH" "$pcap" "$pcap.rudpscope.sqlite" > "$out" 2> "$out.err" \
    || { cat "$out.err" >&2; die "packets-bench failed on $pcap"; }
  printf "%-5s %10s %6.0f | %6.1f %6.1f %7.1f | %6.2f %6.2f %7.2f | %6.1f %6.1f %7.1f | %5s %5s\n" "$size" \
    "$(field packets "$out")" "$(field open_painted_ms "$out")" \
    "$(field jump_median_ms "$out")" "$(field jump_p95_ms "$out")" "$(field jump_max_ms "$out")" \
    "$(field scroll_wheel_median_ms "$out")" "$(field scroll_wheel_p95_ms "$out")" "$(field scroll_wheel_max_ms "$out")" \
    "$(field scroll_page_median_ms "$out")" "$(field scroll_page_p95_ms "$out")" "$(field scroll_page_max_ms "$out")" \
    "$(field rss_mb "$out")" "$(field peak_rss_mb "$out")"
  echo "  $size: steps over one 60 Hz frame (16.7 ms): wheel $(field scroll_wheel_over_16_7ms "$out")/600, page $(field scroll_page_over_16_7ms "$out")/600; pages cached $(field cached_pages "$out")" 
  echo "  $size: the last frame's stream items (udp.stream and times, every frame before it replayed in the background): $(field last_frame_stream_items_ms "$out") ms"
  echo "  $size: one row up from there (the replay from its last checkpoint): $(field one_row_up_stream_items_ms "$out") ms"
done
echo
echo "Display filters from the bar (Enter to done), and tshark -Y with the same field filter"
printf "%-5s | %-34s | %-44s | %-26s | %s\n" size "stored: ms, first rows ms, shown" \
  "fields: ms, first rows ms, shown, frames/s" "tshark -Y: s, shown, fr/s" "ours/tshark speed"
for size in $SIZES; do
  pcap="$DIR/gui-$size-loss.pcap" out="$DIR/packets-$size.txt"
  filter="$(field fields_filter "$out")"
  start=$(date +%s.%N)
  shown=$(tshark -n -r "$pcap" -X "lua_script:$ROOT/dissectors/grudp.lua" -Y "$filter" -T fields -e frame.number | wc -l)
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  frames=$(field packets "$out")
  printf "%-5s | %9.0f %9.0f %12s | %9.0f %9.0f %10s %11.0f | %8.1f %8s %8.0f | %.2fx\n" "$size" \
    "$(field stored_ms "$out")" "$(field stored_first_rows_ms "$out")" "$(field stored_displayed "$out")" \
    "$(field fields_ms "$out")" "$(field fields_first_rows_ms "$out")" "$(field fields_displayed "$out")" \
    "$(field fields_frames_per_s "$out")" "$secs" "$shown" "$(awk -v f="$frames" -v s="$secs" 'BEGIN { print f / s }')" \
    "$(awk -v o="$(field fields_frames_per_s "$out")" -v f="$frames" -v s="$secs" 'BEGIN { print o / (f / s) }')"
  [[ "$shown" == "$(field fields_displayed "$out")" ]] \
    || echo "  $size: MISMATCH: tshark -Y shows $shown frames, the bar $(field fields_displayed "$out")"
  stored="$(tshark -n -r "$pcap" -Y "$(field stored_filter "$out")" -T fields -e frame.number | wc -l)"
  [[ "$stored" == "$(field stored_displayed "$out")" ]] \
    && echo "  $size: the stored filter shows tshark -Y's $stored frames" \
    || echo "  $size: MISMATCH: tshark -Y shows $stored frames for the stored filter, the bar $(field stored_displayed "$out")"
  echo "  $size: memory with the filtered list open: $(field filtered_rss_mb "$out") MB (peak $(field filtered_peak_rss_mb "$out") MB)"
done
echo
echo "goals: jump to any row < 100 ms; scrolling at 60 frames/s (each step < 16.7 ms); the whole GUI < 500 MB;"
echo "       a stored-field filter over all rows < 1 s; the re-dissection filter reported beside tshark -Y"
