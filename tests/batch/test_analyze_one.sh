#!/usr/bin/env bash
# docs/batch/analyze-one.sh as a Slurm array or a Kubernetes indexed Job runs
# it: each index analyses its line of the list into the JSON that
# `rudpscope-cli analyze --json` prints; a rerun skips; bad arguments and a
# failing capture are one line and leave no JSON behind.
#
# usage: test_analyze_one.sh RUDPSCOPE_CLI SOURCE_DIR
set -euo pipefail
cli=$1 src=$2
task="$src/docs/batch/analyze-one.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$src/resources/sample.pcap" "$work/a.pcap"
printf '%s\n' "$work/a.pcap" "$work/missing.pcap" > "$work/list.txt"
export RUDPSCOPE_CLI=$cli

# Index 0: the same JSON as analyze --json prints (but the database path).
"$task" 0 "$work/list.txt" "$work/out"
"$cli" analyze "$work/a.pcap" --json --quiet -j 1 --db "$work/direct.sqlite" > "$work/direct.json"
strip_db() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("database"); print(json.dumps(d, sort_keys=True))' "$1"; }
[[ "$(strip_db "$work/out/000000-a.pcap.json")" == "$(strip_db "$work/direct.json")" ]] \
  || fail "the task's JSON differs from analyze --json"
[[ -z "$(ls "$work/out"/*.sqlite 2>/dev/null)" ]] || fail "a database was kept without KEEP_DB=1"
connections=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["connections"]))' "$work/out/000000-a.pcap.json")
[[ "$connections" == "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["connections"]))' "$work/direct.json")" && "$connections" -ge 1 ]] \
  || fail "connections: $connections"

# A rerun skips the finished task; KEEP_DB=1 keeps the database for the GUI.
before=$(stat -c %Y.%s "$work/out/000000-a.pcap.json")
msg=$("$task" 0 "$work/list.txt" "$work/out" 2>&1)
[[ "$msg" == "analyze-one: $work/out/000000-a.pcap.json exists, skipped" ]] || fail "rerun said: $msg"
[[ "$(stat -c %Y.%s "$work/out/000000-a.pcap.json")" == "$before" ]] || fail "the rerun rewrote the JSON"
KEEP_DB=1 "$task" 0 "$work/list.txt" "$work/kept"
[[ -s "$work/kept/000000-a.pcap.sqlite" ]] || fail "KEEP_DB=1 kept no database"

# Index 1 names a missing capture: the CLI's one line, its exit status, no JSON.
status=0
msg=$("$task" 1 "$work/list.txt" "$work/out" 2>&1) || status=$?
[[ $status -eq 2 ]] || fail "a missing capture exited $status, not rudpscope-cli's 2"
[[ "$msg" == *"missing.pcap"* && "$msg" == *"analyze-one: task 1 failed on '$work/missing.pcap' (rudpscope-cli exit $status)"* ]] \
  || fail "a missing capture said: $msg"
[[ -z "$(ls "$work/out" | grep -v '^000000-a.pcap.json$')" ]] || fail "a failed task left files: $(ls "$work/out")"

# Bad arguments: exit 64 and one line each.
for args in "2 $work/list.txt $work/out" "x $work/list.txt $work/out" "0 $work/nolist $work/out" "0"; do
  status=0
  # shellcheck disable=SC2086
  msg=$("$task" $args 2>&1) || status=$?
  [[ $status -eq 64 && $(printf '%s\n' "$msg" | wc -l) -eq 1 && "$msg" == analyze-one:* ]] \
    || fail "'$args' exited $status saying: $msg"
done
echo "analyze-one: all checks passed"
