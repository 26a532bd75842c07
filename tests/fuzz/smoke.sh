#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build for a short while.
#
#   tests/fuzz/smoke.sh BUILD_DIR [SECONDS=60] [TARGET...]
#
# BUILD_DIR is a tree configured with clang and -DRUDPSCOPE_FUZZ=ON (e.g.
# build/fuzz). TARGETs are names like "decode" (default: every fuzz_* built).
# Each target starts from its seeds and regression corpus; new inputs go to
# $FUZZ_WORK/corpus/<target> (FUZZ_WORK defaults to a temporary folder, set
# it to keep a growing corpus between runs). Crashes, hangs (-timeout=5 per
# input) and OOMs (-rss_limit_mb=2048) land in $FUZZ_WORK/artifacts/<target>/;
# copy them to tests/fuzz/regressions/<target>/ once the bug is understood.
# Extra libFuzzer flags go in $FUZZ_ARGS (e.g. "-fork=1 -ignore_ooms=1" to
# keep going past a known leak). Prints exec/s, coverage and CPU seconds per
# target; exits 1 if any target failed.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 BUILD_DIR [SECONDS] [TARGET...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
secs=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bindir=$build/tests/fuzz

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for f in "$bindir"/fuzz_*; do
    name=${f##*/fuzz_}
    [[ -x $f && $name != replay_* ]] && targets+=("$name")
  done
fi
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "smoke: no fuzz targets in $bindir (configure with CC=clang CXX=clang++ -DRUDPSCOPE_FUZZ=ON)" >&2
  exit 2
fi

work=${FUZZ_WORK:-}
if [[ -z $work ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

failed=0
printf '%-10s %8s %8s %8s %10s %7s  %s\n' target exec/s cov ft execs cpu_s result
for t in "${targets[@]}"; do
  bin=$bindir/fuzz_$t
  [[ -x $bin ]] || { echo "smoke: $bin missing" >&2; failed=1; continue; }
  mkdir -p "$work/corpus/$t" "$work/artifacts/$t" "$src/regressions/$t"
  log=$work/fuzz_$t.log
  inputs=("$work/corpus/$t" "$src/regressions/$t")
  [[ -d $src/seeds/$t ]] && inputs+=("$src/seeds/$t")
  # nice: the machine is shared; the per-input limits make hangs and
  # runaway memory findings rather than stuck runs.
  # CPU seconds (user + sys) as well: on a shared machine wall time overstates
  # how long a target really ran.
  timer=()
  [[ -x /usr/bin/time ]] && timer=(/usr/bin/time -o "$log.cpu" -f '%U %S')
  rc=0
  # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
  "${timer[@]}" nice -n 10 "$bin" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/$t/" ${FUZZ_ARGS:-} \
    "${inputs[@]}" >"$log" 2>&1 || rc=$?
  cpu=?
  [[ -s $log.cpu ]] && cpu=$(awk 'END { printf "%d", $1 + $2 }' "$log.cpu")
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  [[ -n $done_line ]] || done_line=$(grep -E '^#[0-9]+:? ' "$log" | tail -1 || true)
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$done_line")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$done_line")
  eps=$(sed -nE 's/^stat::average_exec_per_sec:[[:space:]]+([0-9]+)/\1/p' "$log" | tail -1)
  execs=$(sed -nE 's/^stat::number_of_executed_units:[[:space:]]+([0-9]+)/\1/p' "$log" | tail -1)
  result=ok
  if [[ $rc -ne 0 ]]; then
    result="FAILED (exit $rc): $(ls "$work/artifacts/$t" | head -3 | tr '\n' ' ')"
    failed=1
    grep -E 'ERROR:|SUMMARY:|invariant broken' "$log" | head -5 >&2 || true
    echo "smoke: log $log, artifacts in $work/artifacts/$t" >&2
    trap - EXIT  # keep the evidence
  fi
  printf '%-10s %8s %8s %8s %10s %7s  %s\n' "$t" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${execs:-?}" "$cpu" "$result"
done
exit $failed
