#!/usr/bin/env bash
# Raw read rate: CaptureReader (bench-read) on one simulated GRUDP capture as
# pcap, pcapng, pcapng.gz and pcapng.zst, next to libpcap reading the same
# plain files (tcpdump -r F -w /dev/null) and tshark's reader (capinfos -c) in
# the same run. Medians of BENCH_REPEAT runs (default 3).
#
# usage: tests/bench/bench_read.sh [BUILD_DIR]   (default: build/release)
#   env: BENCH_PACKETS  packets in the capture (default 1000000)
#        BENCH_TMP      where to put the captures (default: mktemp -d, removed after)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-build/release}"
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
SIM="$BUILD/tests/sim/grudp-sim"
READ="$BUILD/tests/bench/bench-read"
PACKETS="${BENCH_PACKETS:-1000000}"
REPEAT="${BENCH_REPEAT:-3}"

die() { echo "bench_read: error: $*" >&2; exit 2; }
[[ -x "$SIM" ]] || die "grudp-sim not found at $SIM (build target grudp-sim in $BUILD first)"
[[ -x "$READ" ]] || die "bench-read not found at $READ (build target bench-read in $BUILD first)"
for tool in tcpdump editcap capinfos gzip zstd; do
  command -v "$tool" >/dev/null || die "$tool is required (packaging/debian-deps.sh --test)"
done

if [[ -n "${BENCH_TMP:-}" ]]; then
  TMP="$BENCH_TMP"; mkdir -p "$TMP"
else
  TMP="$(mktemp -d -t rudpscope-bench-read.XXXXXX)"
  trap 'rm -rf "$TMP"' EXIT
fi

pcap="$TMP/read.pcap"
"$SIM" --out "$pcap" --connections 64 --packets "$PACKETS" --seed 1 >/dev/null
editcap -F pcapng "$pcap" "$TMP/read.pcapng"
gzip -k -6 "$TMP/read.pcapng"
zstd -q -k "$TMP/read.pcapng"

now_s() { date +%s.%N; }
# median_wall CMD...: median wall seconds of $REPEAT runs.
median_wall() {
  local walls=() i t0
  for ((i = 0; i < REPEAT; i++)); do
    t0="$(now_s)"
    "$@" >/dev/null 2>&1 || die "failed: $*"
    walls+=("$(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { printf "%.4f", b - a }')")
  done
  printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(((REPEAT + 1) / 2))p"
}

count="$("$READ" "$pcap" | awk '{ print $1 }')"
echo "capture: $count packets, $(du -k "$pcap" | awk '{print $1}') kB pcap; medians of $REPEAT runs (wall seconds, packets/s)"
printf '%-14s %12s %14s %12s %14s %10s\n' file rudpscope "pkts/s" libpcap "pkts/s" ratio
for f in read.pcap read.pcapng read.pcapng.gz read.pcapng.zst; do
  ours="$(median_wall "$READ" "$TMP/$f")"
  n="$("$READ" "$TMP/$f" | awk '{ print $1 }')"
  [[ "$n" == "$count" ]] || die "$f: bench-read read $n packets, not $count"
  peer="-"; peer_rate="-"; ratio="-"
  if [[ "$f" != *.zst ]]; then  # libpcap reads neither gzip nor zstd: tcpdump is given the plain file then
    plain="$TMP/${f%.gz}"
    peer="$(median_wall tcpdump -r "$plain" -w /dev/null)"
    peer_rate="$(awk -v n="$count" -v s="$peer" 'BEGIN { printf "%.0f", n / s }')"
    ratio="$(awk -v a="$peer" -v b="$ours" 'BEGIN { printf "%.2fx", a / b }')"
  fi
  printf '%-14s %12s %14s %12s %14s %10s\n' "$f" "$ours" "$(awk -v n="$count" -v s="$ours" 'BEGIN { printf "%.0f", n / s }')" \
    "$peer" "$peer_rate" "$ratio"
done
t="$(median_wall capinfos -c "$TMP/read.pcapng.gz")"
echo "tshark's reader (capinfos -c) on read.pcapng.gz: $t s ($(awk -v n="$count" -v s="$t" 'BEGIN { printf "%.0f", n / s }') packets/s)"
