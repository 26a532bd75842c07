#!/usr/bin/env bash
# clang-tidy (the checks in .clang-tidy: bugprone, performance, concurrency)
# over every tracked source of analysis/ and app/, with the compile commands of
# a configured and built tree (generated moc headers must exist). Any finding
# fails.   tests/code_health/clang_tidy.sh [BUILD_DIR=build/dev] [JOBS=nproc]
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build/dev}"
jobs="${2:-$(nproc)}"
[[ -f "$build/compile_commands.json" ]] ||
  { echo "no $build/compile_commands.json: configure and build first" >&2; exit 2; }
command -v run-clang-tidy >/dev/null || { echo "needs clang-tidy (apt-get install clang-tidy)" >&2; exit 2; }
mapfile -t files < <(git ls-files 'analysis/*.cpp' 'app/*.cpp')
start=$(date +%s)
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
run-clang-tidy -p "$build" -j "$jobs" -quiet "${files[@]/#/$PWD/}" > "$log" 2>&1 || status=$?
findings=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^/.*: (warning|error): ' | sort -u || true)
echo "clang-tidy: ${#files[@]} files in $(( $(date +%s) - start )) s"
if [[ -n "$findings" || $status -ne 0 ]]; then
  if [[ -n "$findings" ]]; then echo "$findings"; else sed 's/\x1b\[[0-9;]*m//g' "$log" | tail -30; fi
  echo "FAIL: clang-tidy found $(printf '%s\n' "$findings" | grep -c . ) problem(s)" >&2
  exit 1
fi
echo "PASS: clang-tidy clean"
