#!/usr/bin/env bash
# Every tracked C++ file is formatted as .clang-format says. Prints the files
# that are not and fails.   tests/code_health/clang_format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v clang-format >/dev/null || { echo "needs clang-format (apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.hpp' '*.c')
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  printf '%s\n' "${bad[@]}"
  echo "FAIL: ${#bad[@]} of ${#files[@]} files differ from .clang-format (tests/code_health/clang_format.sh --fix)" >&2
  exit 1
fi
echo "PASS: ${#files[@]} files formatted"
