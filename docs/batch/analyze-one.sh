#!/usr/bin/env bash
# One task of a batch run over many captures: analyse the capture named on
# line INDEX (counting from 0) of LIST and write OUTDIR/INDEX-NAME.json, the
# summary `rudpscope-cli analyze --json` prints. A Slurm array task or a
# Kubernetes indexed Job pod runs it with its own index (docs/scale-out.md).
#
# usage: analyze-one.sh INDEX LIST OUTDIR
#   env: RUDPSCOPE_CLI  the CLI (default: rudpscope-cli on PATH)
#        JOBS           Lua lanes (default 1: one core per task packs best)
#        KEEP_DB=1      keep OUTDIR/INDEX-NAME.sqlite for the GUI (default: the
#                       database goes to a temporary folder and is removed)
#        ANALYZE_ARGS   more analyze options, e.g. "--genre moba"
#
# Rerunning a task is safe: the JSON is written under a temporary name and
# renamed when complete, and a task whose JSON exists is skipped. Exit
# status: 0 done or skipped, 64 bad arguments (EX_USAGE), else rudpscope-cli's
# (2: the capture cannot be read or analysed).
set -euo pipefail

die() { echo "analyze-one: $*" >&2; exit 64; }
[[ $# -eq 3 ]] || die "usage: analyze-one.sh INDEX LIST OUTDIR"
index=$1 list=$2 out=$3
[[ "$index" =~ ^[0-9]+$ ]] || die "INDEX must be a number from 0, not '$index'"
[[ -r "$list" ]] || die "cannot read the list '$list'"
capture=$(sed -n "$((index + 1))p" "$list")
[[ -n "$capture" ]] || die "'$list' has no line $((index + 1)) (INDEX $index)"
cli=${RUDPSCOPE_CLI:-rudpscope-cli}

mkdir -p "$out"
stem="$out/$(printf '%06d' "$index")-$(basename "$capture")"
[[ -s "$stem.json" ]] && { echo "analyze-one: $stem.json exists, skipped" >&2; exit 0; }
if [[ "${KEEP_DB:-0}" == 1 ]]; then
  db="$stem.sqlite"
else
  tmpdir=$(mktemp -d)
  trap 'rm -rf "$tmpdir"' EXIT
  db="$tmpdir/analysis.sqlite"
fi
status=0
# shellcheck disable=SC2086  # ANALYZE_ARGS is a list of options
"$cli" analyze "$capture" --json --quiet -j "${JOBS:-1}" --db "$db" ${ANALYZE_ARGS:-} \
  > "$stem.json.partial" || status=$?
if [[ $status -ne 0 ]]; then
  rm -f "$stem.json.partial"
  echo "analyze-one: task $index failed on '$capture' (rudpscope-cli exit $status)" >&2
  exit "$status"
fi
mv "$stem.json.partial" "$stem.json"
