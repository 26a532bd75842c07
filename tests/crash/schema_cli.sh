#!/usr/bin/env bash
# CLI level: a database at --db written by another schema version (older,
# newer, or a foreign SQLite file) is never read as a result. `analyze`
# replaces it with a complete database of the current version. (Rejection
# with a message on read is StoreReader's, tested in tests/unit/store.)
#
#   tests/crash/schema_cli.sh BUILD_DIR
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/common.sh"
[[ $# -ge 1 ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
crash_tools "$1"
src=$(cd "$here/../.." && pwd)
cap=$src/tests/data/link/eth.pcap

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The current version, from a fresh result.
"$CLI" analyze "$cap" --db "$work/ref.sqlite" -q >/dev/null
current=$(sqlval "$work/ref.sqlite" "PRAGMA user_version")
frames=$(sqlval "$work/ref.sqlite" "SELECT packet_count FROM capture")

fail=0
versions=$(printf '%s\n' 0 $((current - 1)) $((current + 1)) 999 | awk '$1 >= 0' | sort -un)
for v in $versions foreign; do
  db=$work/v$v.sqlite
  if [[ $v == foreign ]]; then
    sqlite3 "$db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
  else
    # Looks complete, with a bogus packet count: reading it would be misreading.
    sqlite3 "$db" "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                   INSERT INTO meta VALUES ('complete', '1');
                   CREATE TABLE capture(packet_count INTEGER);
                   INSERT INTO capture VALUES (123456789);
                   PRAGMA user_version = $v;"
  fi
  if ! "$CLI" analyze "$cap" --db "$db" -q >/dev/null 2>"$work/err"; then
    echo "FAIL: analyze over a version-$v database: $(cat "$work/err")" >&2; fail=1; continue
  fi
  got_v=$(sqlval "$db" "PRAGMA user_version")
  got_f=$(sqlval "$db" "SELECT packet_count FROM capture")
  if [[ $got_v != "$current" || $got_f != "$frames" || $(db_state "$db") != complete ]]; then
    echo "FAIL: version-$v database not replaced: version $got_v, $got_f frames" >&2; fail=1
  else
    echo "  version $v: replaced by a complete version-$current result"
  fi
done
[[ $fail -eq 0 ]] && echo "schema_cli: ok" || { echo "schema_cli: FAILED"; exit 1; }
