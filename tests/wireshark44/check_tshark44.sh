#!/bin/bash
# The dissectors run unchanged in tshark 4.0 (this Debian 12 host, Lua 5.2)
# and tshark 4.4 (a debootstrap'd Debian 13 root, Lua 5.4), and
# `rudpscope-cli decode` prints what tshark prints. On every committed capture
# (`git ls-files '*.pcap' '*.pcapng'`; KCP/ENet captures once more with their
# port preferences) it compares:
#   - the fields our dissectors register (`tshark -G fields`, 4.0 = 4.4);
#   - -T fields output of all of them plus frame.number: 4.4 (booleans
#     True/False read as 1/0) = 4.0 = `rudpscope-cli decode`;
#   - the -V subtrees of our protocols: 4.4 = 4.0;
#   - exit status and stderr: 4.0 = 4.4, only known lines (allow-list below);
#     the CLI warns about a cut-off file exactly when tshark does;
# and fails on any "Lua Error" in -V output and on Lua names deprecated or
# gone in Lua 5.3/5.4 (luac5.4 listing; 4.4 prints nothing for those).
# Needs root (debootstrap, chroot) and Debian's archive on the first run.
#   tests/wireshark44/check_tshark44.sh [WORKDIR]
# Environment: RUDPSCOPE_CLI (default build/dev/analysis/cli/rudpscope-cli),
# RUDPSCOPE_ROOT_CACHE, RUDPSCOPE_ROOT_MAX_AGE_DAYS, DEBIAN_MIRROR
# (trixie_root.sh), KEEP_WORKDIR=1 keeps the work directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"
cli="${RUDPSCOPE_CLI:-$repo/build/dev/analysis/cli/rudpscope-cli}"
work="${1:-$(mktemp -d /var/tmp/rudpscope-ws44.XXXXXX)}"
root="$work/root"
inroot="/home/wscheck/repo"   # the repository's layout inside the root
start=$(date +%s)
# shellcheck source=trixie_root.sh
source "$here/trixie_root.sh"

# The KCP/ENet captures once more with the ports their agreement test uses.
PORT_PREFS="kcp.ports:29900-29901,40124 enet.ports:17091,40123"
# stderr lines tshark may print, on both versions alike (a cut-off capture).
TSHARK_STDERR_OK='^tshark: The file "[^"]*" appears to have been cut short in the middle of a packet\.$'
# Printed by tshark 4.0 on the host only: it runs as root there.
HOST_ROOT_LINE='Running as user "root" and group "root". This could be dangerous.'
CLI_STDERR_OK="^rudpscope-cli: warning: '[^']*' is cut off in the middle of a packet after frame [0-9]+; [0-9]+ frames read$"

failures=0
fail() { printf 'FAIL: %b\n' "$*" >&2; failures=$((failures + 1)); }
elapsed() { echo "$(( $(date +%s) - start )) s"; }

cleanup() {
  if [[ "${KEEP_WORKDIR:-0}" == 1 || $failures -gt 0 ]]; then
    echo "(work directory kept: $work)"
  else
    rm -rf "$work"
  fi
  echo "== wall time $(elapsed) (with removing the work directory)"
}
trap cleanup EXIT

check_prerequisites() {
  [[ $(id -u) -eq 0 ]] || { echo "FAIL: needs root (debootstrap, chroot)" >&2; exit 2; }
  command -v tshark >/dev/null || { echo "FAIL: needs the host's tshark 4.0" >&2; exit 2; }
  [[ -x "$cli" ]] || { echo "FAIL: no rudpscope-cli at $cli (build it, or set RUDPSCOPE_CLI)" >&2; exit 2; }
}

# The run list: ID, capture, preferences.
write_capture_list() {
  local list="$1" capture id
  : > "$list"
  while IFS= read -r capture; do
    id="${capture//\//__}"
    printf '%s\t%s\t\n' "$id" "$capture" >> "$list"
    [[ "$capture" == tests/kcp_enet/data/* ]] && printf '%s\t%s\t%s\n' "$id.ports" "$capture" "$PORT_PREFS" >> "$list"
  done < <(git -C "$repo" ls-files '*.pcap' '*.pcapng')
  echo "== $(git -C "$repo" ls-files '*.pcap' '*.pcapng' | wc -l) committed captures, $(wc -l < "$list") runs"
}

copy_into_root() {
  local list="$1" dest="$root$inroot"
  rm -rf "$dest"; mkdir -p "$dest/dissectors"
  cp "$repo"/dissectors/*.lua "$dest/dissectors/"
  (cd "$repo" && git ls-files -z '*.pcap' '*.pcapng' | xargs -0 cp --parents -t "$dest")
  cp "$here/run_side.sh" "$list" "$dest/"
  chown -R "$TRIXIE_USER_ID:$TRIXIE_USER_ID" "$root/home/$TRIXIE_USER_NAME"
}

tshark40() { (cd "$repo" && env -i HOME="$work/home40" PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC tshark "$@"); }
tshark44() { trixie_run_as_user "$root" "$inroot" tshark "$@"; }

script_args() { local s; for s in "$repo"/dissectors/*.lua; do echo "-X lua_script:dissectors/$(basename "$s")"; done; }

# Filter names and full names of the protocols our dissectors add, and the
# fields they register (sorted `-G fields` lines); 4.0 and 4.4 must agree.
register_our_fields() {
  local v
  mkdir -p "$work/home40"
  for v in 40 44; do
    "tshark$v" -G protocols > "$work/protocols$v.builtin" 2> /dev/null
    # shellcheck disable=SC2046
    "tshark$v" -G protocols $(script_args) > "$work/protocols$v.all" 2> /dev/null
    # 4.4 adds columns (enabled flags) to 4.0's name, short name, filter name.
    cut -f1-3 "$work/protocols$v.builtin" | sort > "$work/p.b"; cut -f1-3 "$work/protocols$v.all" | sort > "$work/p.a"
    comm -13 "$work/p.b" "$work/p.a" > "$work/protocols$v.ours"
    # shellcheck disable=SC2046
    "tshark$v" -G fields $(script_args) 2> "$work/fields$v.err" |
      awk -F'\t' -v ours="$(cut -f3 "$work/protocols$v.ours" | tr '\n' ' ')" \
        'BEGIN { n = split(ours, p, " "); for (i = 1; i <= n; i++) mine[p[i]] = 1 } $1 == "F" && ($5 in mine)' |
      sort > "$work/fields$v.ours"
  done
  grep -vxF "$HOST_ROOT_LINE" "$work/fields40.err" > "$work/fields40.err.rest" || true
  [[ -s "$work/fields40.err.rest" || -s "$work/fields44.err" ]] &&
    fail "tshark -G fields printed on stderr: $(cat "$work/fields40.err.rest" "$work/fields44.err")"
  cmp -s "$work/protocols40.ours" "$work/protocols44.ours" ||
    fail "our protocols differ: $(diff "$work/protocols40.ours" "$work/protocols44.ours" | head -5)"
  cmp -s "$work/fields40.ours" "$work/fields44.ours" ||
    fail "registered fields differ (4.0 < > 4.4):\n$(diff "$work/fields40.ours" "$work/fields44.ours" | head -10)"
  cut -f3 "$work/protocols40.ours" | sort > "$work/our_filter_names"
  cut -f1 "$work/protocols40.ours" > "$work/our_protocol_names"
  { echo frame.number; cut -f3 "$work/fields40.ours"; } > "$work/field_list"
  list_cli_fields
  echo "== our protocols: $(tr '\n' ' ' < "$work/our_filter_names")($(wc -l < "$work/fields40.ours") fields," \
       "$(grep -c $'\tFT_BOOLEAN\t' "$work/fields40.ours") boolean)"
  [[ -s "$work/our_filter_names" && -s "$work/fields40.ours" ]] || fail "the dissectors registered no protocol or field"
}

# decode prints fields, not expert infos (ProtoExpert), which Wireshark
# registers as FT_NONE fields too: the CLI's list leaves them out, and
# cli_columns says which tshark columns remain.
list_cli_fields() {
  (cd "$repo" && grep -ho 'ProtoExpert.new("[^"]*"' dissectors/*.lua | sed 's/.*("//; s/"$//') | sort > "$work/experts"
  local e
  while IFS= read -r e; do
    grep -q $'\t'"$e"$'\tFT_NONE\t' "$work/fields40.ours" || fail "expert info $e is not an FT_NONE field in tshark -G fields"
  done < "$work/experts"
  grep -vxF -f "$work/experts" "$work/field_list" > "$work/field_list.cli"
  cli_columns="$(awk 'NR == FNR { expert[$0] = 1; next } !($0 in expert) { printf "%s%d", sep, FNR; sep = "," }' \
    "$work/experts" "$work/field_list")"
  echo "== $(wc -l < "$work/experts") expert infos among them (not printed by decode)"
}

# 1-based -T fields columns of the boolean fields.
boolean_columns() {
  awk -F'\t' 'NR == FNR { if ($4 == "FT_BOOLEAN") bool[$3] = 1; next }
              ($0 in bool) { printf "%s%d", sep, FNR; sep = "," }' "$work/fields40.ours" "$work/field_list"
}

lua_api_check() {
  local f bad
  for f in "$repo"/dissectors/*.lua; do
    trixie_run_as_user "$root" "$inroot" luac5.4 -l -p "dissectors/$(basename "$f")" ||
      fail "luac5.4 (Lua 5.4) rejects dissectors/$(basename "$f")"
  done > "$work/luac.listing"
  if ! bad="$(awk -f "$here/lua_compat_names.awk" "$work/luac.listing")"; then
    fail "Lua names deprecated or removed in Lua 5.3/5.4:\n$bad"
  fi
}

run_all_sides() {
  local list="$work/list" fields="$work/field_list"
  echo "== tshark 4.0 (host) on every capture: -T fields and -V  [$(elapsed)]"
  (cd "$repo" && env -i HOME="$work/home40" PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC \
     bash "$here/run_side.sh" tshark tshark "$list" "$fields" "$work/out40")
  echo "== tshark 4.4 (Debian 13 root, uid $TRIXIE_USER_ID): -T fields and -V  [$(elapsed)]"
  cp "$fields" "$root$inroot/field_list"; chown "$TRIXIE_USER_ID" "$root$inroot/field_list"
  trixie_run_as_user "$root" "$inroot" bash run_side.sh tshark tshark list field_list out44
  echo "== rudpscope-cli decode  [$(elapsed)]"
  (cd "$repo" && env -i HOME="$work/home40" PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC \
     RUDPSCOPE_DISSECTORS="$repo/dissectors" \
     bash "$here/run_side.sh" cli "$cli" "$list" "$fields.cli" "$work/outcli")
}

# Same exit status, same stderr (less the host's root line), known lines only.
compare_status() {
  local id="$1" what="$2" a="$work/out40/$id.$2" b="$root$inroot/out44/$id.$2"
  [[ "$(cat "$a.rc")" == "$(cat "$b.rc")" ]] || fail "$id $what: exit status 4.0=$(cat "$a.rc") 4.4=$(cat "$b.rc")"
  grep -vxF "$HOST_ROOT_LINE" "$a.err" > "$a.err.rest" || true
  cmp -s "$a.err.rest" "$b.err" ||
    fail "$id $what: stderr differs:\n 4.0: $(head -3 "$a.err.rest")\n 4.4: $(head -3 "$b.err")"
  if grep -vE "$TSHARK_STDERR_OK" "$b.err" > "$work/unexpected"; then
    fail "$id $what: tshark 4.4 printed on stderr:\n$(head -5 "$work/unexpected")"
  fi
  if [[ "$(cat "$a.rc")" != 0 ]] && ! grep -qE "$TSHARK_STDERR_OK" "$a.err"; then
    fail "$id $what: tshark failed (status $(cat "$a.rc")) without a known message"
  fi
}

# First differing lines of two files, or nothing.
first_differences() { diff "$1" "$2" | grep '^[<>]' | head -"${3:-6}" || true; }

compare_fields() {
  local id="$1" cols="$2" t40="$work/out40/$id.fields" t44="$root$inroot/out44/$id.fields" ours="$work/outcli/$id.fields"
  awk -v cols="$cols" -f "$here/bools_as_digits.awk" "$t44" > "$t44.digits"
  cmp -s "$t40" "$t44.digits" ||
    fail "$id: -T fields differ (< 4.0, > 4.4 with 1/0 booleans):\n$(first_differences "$t40" "$t44.digits")"
  cut -f"$cli_columns" "$t40" > "$t40.cli"
  cmp -s "$t40.cli" "$ours" ||
    fail "$id: rudpscope-cli decode differs from tshark 4.0 (< tshark, > decode):\n$(first_differences "$t40.cli" "$ours")"
  [[ "$(cat "$ours.rc")" == 0 ]] || fail "$id: rudpscope-cli decode exited $(cat "$ours.rc"): $(head -2 "$ours.err")"
  if grep -vE "$CLI_STDERR_OK" "$ours.err" > "$work/unexpected"; then
    fail "$id: rudpscope-cli printed on stderr:\n$(head -5 "$work/unexpected")"
  fi
  # A cut-off file: the CLI warns exactly when tshark says so.
  local t_cut=0 c_cut=0
  grep -qE "$TSHARK_STDERR_OK" "$t40.err" && t_cut=1
  grep -qE "$CLI_STDERR_OK" "$ours.err" && c_cut=1
  [[ $t_cut == "$c_cut" ]] || fail "$id: tshark says cut off: $t_cut, rudpscope-cli warns: $c_cut"
}

compare_trees() {
  local id="$1" v40="$work/out40/$id.V" v44="$root$inroot/out44/$id.V"
  awk -v names="$work/our_protocol_names" -f "$here/our_subtrees.awk" "$v40" > "$v40.ours"
  awk -v names="$work/our_protocol_names" -f "$here/our_subtrees.awk" "$v44" > "$v44.ours"
  local verdict
  if verdict="$(awk -f "$here/tree_lines_equal.awk" "$v40.ours" "$v44.ours")"; then
    elided=$((elided + ${verdict#elided }))
  else
    fail "$id: -V subtrees of our protocols differ (< 4.0, > 4.4):\n$verdict"
  fi
  if grep -i -m3 'lua error' "$v40" "$v44" > "$work/unexpected"; then
    fail "$id: Lua error in -V output:\n$(cat "$work/unexpected")"
  fi
}

compare_all() {
  local id cols frames=0 subtree_lines=0
  elided=0
  cols="$(boolean_columns)"
  while IFS=$'\t' read -r id _; do
    compare_status "$id" fields
    compare_status "$id" V
    compare_fields "$id" "$cols"
    compare_trees "$id"
    frames=$((frames + $(wc -l < "$work/out40/$id.fields")))
    subtree_lines=$((subtree_lines + $(wc -l < "$work/out40/$id.V.ours")))
  done < "$work/list"
  echo "== compared $frames frames (-T fields lines) and $subtree_lines -V lines of our subtrees" \
       "($elided bytes labels longer in 4.4 than 4.0's 36 bytes + \"…\")"
  [[ $frames -gt 0 && $subtree_lines -gt 0 ]] || fail "nothing was decoded"
}

main() {
  check_prerequisites
  mkdir -p "$work"
  echo "== work directory $work; host: $(tshark -v 2>/dev/null | head -1)"
  trixie_root_prepare "$root" "$work/root.log"
  echo "== root ready  [$(elapsed)]: $(trixie_run_as_user "$root" / tshark -v | head -1)"
  write_capture_list "$work/list"
  copy_into_root "$work/list"
  register_our_fields
  lua_api_check
  run_all_sides
  compare_all
  if [[ $failures -gt 0 ]]; then
    echo "FAIL: $failures difference(s) between tshark 4.0, tshark 4.4 and rudpscope-cli decode" >&2
    exit 1
  fi
  echo "PASS: the dissectors give the same fields and -V subtrees in tshark 4.0 and 4.4, and decode agrees"
}

main
