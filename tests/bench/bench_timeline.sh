#!/usr/bin/env bash
# Connection timeline benchmark: frame times while zooming and panning a
# connection with >= 100,000 RTT samples (goal: median < 16 ms, worst < 50 ms
# at 1600x900).
#
# usage: tests/bench/bench_timeline.sh [BUILD_DIR]     (default: build/release)
#   env: BENCH_TMP       where to put the capture (default: mktemp -d, removed after)
#        BENCH_DURATION  simulated seconds (default 180: ~112k RTT samples)
#        BENCH_STEPS     zoom/pan steps (default 200)
#
# Builds nothing: it uses BUILD_DIR/tests/sim/grudp-sim and
# BUILD_DIR/tests/gui/widgets/bench_timeline as they are. Frame times are
# printed as wall time and as the rendering thread's CPU time (the figure
# that does not depend on what else the machine runs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-build/release}"
[[ "$BUILD" = /* ]] || BUILD="$ROOT/$BUILD"
SIM="$BUILD/tests/sim/grudp-sim"
BENCH="$BUILD/tests/gui/widgets/bench_timeline"
DURATION="${BENCH_DURATION:-180}"
STEPS="${BENCH_STEPS:-200}"

die() { echo "bench_timeline: error: $*" >&2; exit 2; }
[[ -x "$SIM" ]] || die "grudp-sim not found at $SIM (build target grudp-sim in $BUILD first)"
[[ -x "$BENCH" ]] || die "bench_timeline not found at $BENCH (build target bench_timeline in $BUILD first)"

if [[ -n "${BENCH_TMP:-}" ]]; then
  TMP="$BENCH_TMP"; mkdir -p "$TMP"
else
  TMP="$(mktemp -d -t rudpscope-timeline.XXXXXX)"
  trap 'rm -rf "$TMP"' EXIT
fi

# One connection at 1000 ticks/s each way, 5 ms one-way delay (so the 33-seq
# ack window never blocks), 1% bursty loss and a 1.5 s outage: ~1,000 RTT
# samples per second of the server's data at the client.
pcap="$TMP/timeline.pcap"
echo "== generating ${DURATION} s of one connection at 1000 Hz -> $pcap"
"$SIM" --out "$pcap" --connections 1 --duration "$DURATION" --tick-hz 1000,1000 --delay-ms 5 \
  --jitter-ms 1 --loss 0.01 --burst 2 --outage 60:61.5@0 --seed 1

echo "== bench_timeline ($STEPS steps at 1600x900)"
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "$BENCH" "$pcap" --steps "$STEPS" --size 1600x900
