#!/usr/bin/env bash
# Prints what `rudpscope-cli analyze` says about a capture, as a table and as
# JSON, with the capture's and the database's paths replaced by CAPTURE and
# DATABASE: the same text for the build tree's CLI and an installed one, so
# the two can be compared whole. Fails if the CLI fails or writes to stderr.
#   tests/packaging/sample_summary.sh CLI CAPTURE DB
set -euo pipefail
cli="$1" capture="$2" db="$3"
out="$(mktemp)" err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
if ! { "$cli" analyze "$capture" --db "$db" -q && "$cli" analyze "$capture" --db "$db" -q --json; } > "$out" 2> "$err" ||
   [[ -s "$err" ]]; then
  echo "FAIL: $cli analyze $capture failed or wrote to stderr:" >&2
  cat "$err" >&2
  exit 1
fi
sed -e "s|$db|DATABASE|g" -e "s|$capture|CAPTURE|g" "$out"
