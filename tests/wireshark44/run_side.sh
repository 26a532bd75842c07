#!/bin/bash
# Runs one decoder over every capture of a list, from the current directory
# (a copy of the repository's layout, so file names in messages are the same
# on every side). Used for tshark 4.0 on the host, tshark 4.4 inside the
# Debian 13 root, and `rudpscope-cli decode`.
#   run_side.sh tshark|cli PROGRAM LIST FIELDS OUTDIR
# LIST: one line per run, "ID<TAB>CAPTURE<TAB>NAME:VALUE NAME:VALUE..."
# (preferences, may be empty). FIELDS: one field name per line.
# Writes OUTDIR/ID.fields (-T fields / decode) and, for tshark, OUTDIR/ID.V
# (-V), each with .err (stderr) and .rc (exit status).
set -uo pipefail
kind="$1" program="$2" list="$3" fields_file="$4" out="$5"
mkdir -p "$out"

field_args=()
while IFS= read -r f; do field_args+=(-e "$f"); done < "$fields_file"

# tshark loads the repository's dissectors with -X, in name order; the CLI
# loads the same files by default.
script_args=()
if [[ "$kind" == tshark ]]; then
  for s in dissectors/*.lua; do script_args+=(-X "lua_script:$s"); done
fi

run_to() {
  local base="$1"; shift
  "$@" > "$base" 2> "$base.err"
  echo $? > "$base.rc"
}

while IFS=$'\t' read -r id capture prefs; do
  pref_args=()
  for p in $prefs; do pref_args+=(-o "$p"); done
  if [[ "$kind" == tshark ]]; then
    run_to "$out/$id.fields" "$program" -n -r "$capture" "${script_args[@]}" "${pref_args[@]}" \
      -T fields "${field_args[@]}"
    run_to "$out/$id.V" "$program" -n -r "$capture" "${script_args[@]}" "${pref_args[@]}" -V
  else
    run_to "$out/$id.fields" "$program" decode "$capture" "${pref_args[@]}" "${field_args[@]}"
  fi
done < "$list"
