#!/usr/bin/env bash
# Per-connection query benchmark: ingest a game-server-shaped capture of about
# 1M packets (64 connections, 60 Hz both ways, 2 % loss in bursts of 2, 30 ms
# delay, captured at the server), then time StoreReader's per-connection
# queries for one connection (tests/bench/bench_queries.cpp).
#
# usage: tests/bench/bench_queries.sh BUILD_DIR [BIG_PCAP]
#   BIG_PCAP   optional capture of about 10M packets for the big figure (one
#              ingest per build); generated with the same shape if missing
#   env: BENCH_TMP       where to put captures and databases (default: mktemp
#                        -d, removed after)
#        BENCH_REPEAT    ingests of the 1M capture per build; medians are
#                        reported (default 3)
#        BENCH_BASELINE  a second build dir (e.g. of the previous commit): its
#                        ingests alternate with BUILD_DIR's, so both see the
#                        same neighbours, and the cost is printed in %
#
# Builds nothing: it uses BUILD/tests/sim/grudp-sim,
# BUILD/analysis/cli/rudpscope-cli and BUILD/tests/bench/bench-queries.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
abs() { [[ "$1" = /* ]] && echo "$1" || echo "$ROOT/$1"; }
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR [BIG_PCAP]" >&2; exit 2; }
BUILD="$(abs "$1")"
BIG="${2:-}"
REPEAT="${BENCH_REPEAT:-3}"
BUILDS=("$BUILD")
[[ -n "${BENCH_BASELINE:-}" ]] && BUILDS=("$(abs "$BENCH_BASELINE")" "$BUILD")
SHAPE=(--connections 64 --tick-hz 60,60 --loss 0.02 --burst 2 --delay-ms 30 --vantage server --seed 1)

die() { echo "bench_queries: error: $*" >&2; exit 2; }
for b in "${BUILDS[@]}"; do
  for t in analysis/cli/rudpscope-cli tests/bench/bench-queries; do
    [[ -x "$b/$t" ]] || die "$b/$t not found (build rudpscope-cli and bench-queries there)"
  done
done
[[ -x "$BUILD/tests/sim/grudp-sim" ]] || die "grudp-sim not found in $BUILD"
[[ -x /usr/bin/time ]] || die "/usr/bin/time (GNU time) is required: apt-get install time"

if [[ -n "${BENCH_TMP:-}" ]]; then
  TMP="$BENCH_TMP"; mkdir -p "$TMP"
else
  TMP="$(mktemp -d -t rudpscope-queries.XXXXXX)"
  trap 'rm -rf "$TMP"' EXIT
fi

# generate PCAP SECONDS: 64 connections make about 7,680 captured packets a second.
generate() {
  [[ -f "$1" ]] && return
  echo "== generating $1 (--duration $2)"
  "$BUILD/tests/sim/grudp-sim" --out "$1" --duration "$2" "${SHAPE[@]}"
}

# ingest BUILD PCAP DB: prints "wall_s cpu_s peak_MB" (CPU = user + system).
ingest() {
  local t0 t1
  t0="$(date +%s.%N)"
  /usr/bin/time -o "$TMP/time" -f '%U %S %M' "$1/analysis/cli/rudpscope-cli" analyze "$2" \
    --db "$3" -q > "$TMP/ingest.log" 2>&1 || { cat "$TMP/ingest.log" >&2; die "analyze $2 failed"; }
  t1="$(date +%s.%N)"
  awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.2f %.1f\n", b - a, $1 + $2, $3 / 1024 }' "$TMP/time"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Builds are named by position: with BENCH_BASELINE, 0 is the baseline.
name() { [[ ${#BUILDS[@]} -eq 2 && $1 -eq 0 ]] && echo baseline || echo "this build"; }

echo "== load before: $(uptime)"
CAP="$TMP/game_1m.pcap"
generate "$CAP" 133
WALLS=(); CPUS=(); RSS=()
for ((i = 0; i < REPEAT; i++)); do
  for k in "${!BUILDS[@]}"; do
    read -r wall cpu rss < <(ingest "${BUILDS[$k]}" "$CAP" "$TMP/db_$k.sqlite")
    echo "   ingest, $(name "$k"), run $((i + 1)): ${wall} s wall, ${cpu} s CPU, ${rss} MB peak"
    WALLS[$k]+="$wall "; CPUS[$k]+="$cpu "; RSS[$k]="$rss"
  done
done
echo "== load after: $(uptime)"

echo
echo "================ 1M-packet ingest ($(nproc) cores, median of $REPEAT) ================"
printf "%-12s %10s %10s %10s %10s  %s\n" build "wall s" "CPU s" "peak MB" "DB MB" dir
MW=(); MC=()
for k in "${!BUILDS[@]}"; do
  MW[$k]="$(tr ' ' '\n' <<< "${WALLS[$k]}" | grep . | median)"
  MC[$k]="$(tr ' ' '\n' <<< "${CPUS[$k]}" | grep . | median)"
  printf "%-12s %10s %10s %10s %10.1f  %s\n" "$(name "$k")" "${MW[$k]}" "${MC[$k]}" "${RSS[$k]}" \
    "$(awk -v s="$(stat -c %s "$TMP/db_$k.sqlite")" 'BEGIN { print s / 1048576 }')" "${BUILDS[$k]}"
done
if [[ ${#BUILDS[@]} -eq 2 ]]; then
  awk -v a="${MW[0]}" -v b="${MW[1]}" -v c="${MC[0]}" -v d="${MC[1]}" \
    'BEGIN { printf "ingest cost vs baseline: %+.1f%% wall, %+.1f%% CPU\n", (b / a - 1) * 100, (d / c - 1) * 100 }'
fi

for k in "${!BUILDS[@]}"; do
  echo
  echo "== queries, $(name "$k"), 1M packets"
  "${BUILDS[$k]}/tests/bench/bench-queries" "$TMP/db_$k.sqlite"
done

[[ -n "$BIG" ]] || exit 0
generate "$BIG" 1330
for k in "${!BUILDS[@]}"; do
  db="$TMP/big_$k.sqlite"
  read -r wall cpu rss < <(ingest "${BUILDS[$k]}" "$BIG" "$db")
  echo
  echo "== $(basename "$BIG"), $(name "$k"): ingest ${wall} s wall, ${cpu} s CPU, ${rss} MB peak"
  "${BUILDS[$k]}/tests/bench/bench-queries" "$db"
  rm -f "$db"
done
