#!/usr/bin/env bash
# memcheck over the CLI: `analyze` and `decode` on every capture in
# tests/data/link and resources/sample.pcap. Any memcheck error or definite /
# possible leak fails the run (--error-exitcode).
#
#   tests/crash/valgrind_cli.sh BUILD_DIR
# Use a non-sanitizer build (build/dev); logs stay in $VALGRIND_LOGS if set.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
cli=${RUDPSCOPE_CLI:-$1/analysis/cli/rudpscope-cli}
[[ -x $cli ]] || { echo "missing $cli" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind not installed" >&2; exit 2; }
src=$(cd "$here/../.." && pwd)

work=$(mktemp -d)
logs=${VALGRIND_LOGS:-$work/logs}
mkdir -p "$logs"
trap 'rm -rf "$work"' EXIT

vg=(valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,possible
    --errors-for-leak-kinds=definite,possible --track-origins=yes --num-callers=30 -q)
[[ -f $here/valgrind.supp ]] && vg+=(--suppressions="$here/valgrind.supp")

captures=("$src"/tests/data/link/*.pcap* "$src/resources/sample.pcap")
fail=0
for cap in "${captures[@]}"; do
  name=$(basename "$cap")
  for cmd in analyze decode; do
    log=$logs/$name.$cmd.log
    if [[ $cmd == analyze ]]; then
      args=(analyze "$cap" --db "$work/$name.sqlite" -q)
    else
      args=(decode "$cap" -e frame.number -e ip.src -e udp.srcport -e tcp.seq -e grudp.seq -e grudp.payload)
    fi
    rc=0
    "${vg[@]}" --log-file="$log" "$cli" "${args[@]}" >/dev/null 2>"$work/err" || rc=$?
    if [[ $rc -eq 99 ]]; then
      echo "FAIL  $cmd $name: memcheck reports, see $log" >&2
      grep -E '^==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|[0-9,]+ bytes in)' "$log" | head -5 >&2
      fail=1
    elif [[ $rc -ne 0 ]]; then
      # eth_truncated.* warn but exit 0; any other exit is a real failure.
      echo "FAIL  $cmd $name: exit $rc: $(head -1 "$work/err")" >&2
      fail=1
    else
      echo "ok    $cmd $name"
    fi
  done
done
if [[ $fail -ne 0 ]]; then
  [[ -n ${VALGRIND_LOGS:-} ]] || { cp -r "$logs" "/tmp/valgrind-cli-logs.$$"; echo "logs kept in /tmp/valgrind-cli-logs.$$"; }
  echo "valgrind_cli: FAILED"; exit 1
fi
echo "valgrind_cli: ok (${#captures[@]} captures x analyze, decode)"
