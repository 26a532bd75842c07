# Shared helpers of the crash-safety scripts (sourced, not run).

# Paths of the tools, from BUILD_DIR unless given in the environment
# (ctest passes the exact target files).
crash_tools() {
  local build=$1
  CLI=${RUDPSCOPE_CLI:-$build/analysis/cli/rudpscope-cli}
  SIM=${GRUDP_SIM:-$build/tests/sim/grudp-sim}
  for t in "$CLI" "$SIM"; do
    [[ -x $t ]] || { echo "missing $t (build it first)" >&2; exit 2; }
  done
  command -v sqlite3 >/dev/null || { echo "sqlite3 not installed" >&2; exit 2; }
}

# One SQL value of database $1, or "ERR" when SQLite cannot answer (no such
# table in a file killed before its schema was written, not a database...).
# Read-only but WAL-aware, so it sees exactly what StoreReader would see.
sqlval() {
  sqlite3 -readonly "$1" "$2" 2>/dev/null || echo ERR
}

# "complete" (meta complete = 1), "incomplete" (= 0) or "unreadable".
db_state() {
  case $(sqlval "$1" "SELECT value FROM meta WHERE key = 'complete'") in
    1) echo complete ;;
    0) echo incomplete ;;
    *) echo unreadable ;;
  esac
}
