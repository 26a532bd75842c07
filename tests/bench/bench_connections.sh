#!/usr/bin/env bash
# Memory bound on connections: peak RSS of `rudpscope-cli analyze` on
# port-scan-shaped captures (make-scan: two packets per connection, GRUDP
# CONNECT/ACCEPT or TCP SYN/RST) of growing size. With the default cap of
# 20000 open connections the peak must stay flat as connections grow.
#
# usage: tests/bench/bench_connections.sh [BUILD_DIR] [COUNTS...]
#   default BUILD_DIR build/release, COUNTS "10000 100000 1000000"
#   env: BENCH_TMP  where to put the captures (default: mktemp -d, removed after)
#        MAX_OPEN   passed as --max-open (default: the CLI's default)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-build/release}"
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
shift $(( $# > 0 ? 1 : 0 ))
COUNTS=("$@")
[[ ${#COUNTS[@]} -gt 0 ]] || COUNTS=(10000 100000 1000000)
SCAN="$BUILD/tests/bench/make-scan"
CLI="$BUILD/analysis/cli/rudpscope-cli"

die() { echo "bench_connections: error: $*" >&2; exit 2; }
[[ -x "$SCAN" ]] || die "make-scan not found at $SCAN (build target make-scan in $BUILD first)"
[[ -x "$CLI" ]] || die "rudpscope-cli not found at $CLI"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required: apt-get install time"

if [[ -n "${BENCH_TMP:-}" ]]; then
  TMP="$BENCH_TMP"; mkdir -p "$TMP"
else
  TMP="$(mktemp -d -t rudpscope-conns.XXXXXX)"
  trap 'rm -rf "$TMP"' EXIT
fi
extra=()
[[ -n "${MAX_OPEN:-}" ]] && extra=(--max-open "$MAX_OPEN")

printf '%-12s %10s %10s %12s %10s  %s\n' connections packets wall_s packets/s peak_MB note
for n in "${COUNTS[@]}"; do
  cap="$TMP/scan_$n.pcap"
  [[ -f "$cap" ]] || "$SCAN" "$cap" "$n"
  /usr/bin/time -o "$TMP/time_$n" -f '%e %M' "$CLI" analyze "$cap" --db "$TMP/scan_$n.sqlite" -q \
    "${extra[@]}" >"$TMP/out_$n" 2>"$TMP/err_$n" || die "analyze failed on $n connections: $(tail -1 "$TMP/err_$n")"
  read -r wall rss <"$TMP/time_$n"
  note=$(grep -o '[0-9]* connections were closed early' "$TMP/err_$n" || true)
  awk -v n="$n" -v w="$wall" -v r="$rss" -v note="$note" \
    'BEGIN { printf "%-12d %10d %10.2f %12.0f %10.1f  %s\n", n, 2 * n, w, 2 * n / w, r / 1024, note }'
done
echo "(wall time includes printing the per-connection summary; peak_MB is the whole process)"
