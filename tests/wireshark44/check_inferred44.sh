#!/bin/bash
# The dissectors `rudpscope-cli dissector infer` writes load unchanged in
# tshark 4.0 (this Debian 12 host, Lua 5.2) and tshark 4.4 (a debootstrap'd
# Debian 13 root, Lua 5.4, run as a user: tshark 4.4 run as root loads no Lua
# script) and decode the same fields: on timing_sim.py's capture, one
# dissector per flow with a counter (the player's u16 LE fields and u32 BE
# ms clock; the server side's u32 fields and 1/65536 s clock), `-T fields`
# of the inferred fields and udp.payload compared line by line, and their
# values checked against the payload bytes the simulator wrote them at.
# Needs root (debootstrap, chroot) and Debian's archive on the first run
# (the root is cached as for check_tshark44.sh).
#   tests/wireshark44/check_inferred44.sh [WORKDIR]
# Environment: RUDPSCOPE_CLI (default build/dev/analysis/cli/rudpscope-cli).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"
cli="${RUDPSCOPE_CLI:-$repo/build/dev/analysis/cli/rudpscope-cli}"
work="${1:-$(mktemp -d /var/tmp/rudpscope-inf44.XXXXXX)}"
root="$work/root"
inroot="/home/wscheck/inferred"
# shellcheck source=trixie_root.sh
source "$here/trixie_root.sh"
[[ $(id -u) -eq 0 ]] || { echo "FAIL: needs root (debootstrap, chroot)" >&2; exit 2; }
[[ -x "$cli" ]] || { echo "FAIL: no rudpscope-cli at $cli" >&2; exit 2; }
mkdir -p "$work"
trap 'rm -rf "$root"' EXIT

python3 "$repo/tests/timing/timing_sim.py" --seed 37 --pcap "$work/t.pcap" --truth "$work/t.json"
trixie_root_prepare "$root" "$work/root.log"
mkdir -p "$root$inroot"
cp "$work/t.pcap" "$root$inroot/"

failures=0
# port: the server's; fields: the dissector's, as -e arguments; layout: the
# simulator's (offset:size:order ...) of seq, ack and ts, to check the values.
check_flow() {
  local port=$1 layout=$2 lua="$work/inferred_$1.lua"
  "$cli" dissector infer "$work/t.pcap" --db "$work/t.sqlite" -q -Y "udp.port == $port" -w "$lua"
  cp "$lua" "$root$inroot/"
  chown -R "$TRIXIE_USER_ID:$TRIXIE_USER_ID" "$root/home/$TRIXIE_USER_NAME"
  local args=(-Y "inferred_$port" -T fields -e "inferred_$port.seq" -e "inferred_$port.ack" -e "inferred_$port.ts"
              -e udp.payload)
  tshark -r "$work/t.pcap" -X lua_script:"$lua" "${args[@]}" 2>/dev/null >"$work/40_$port.tsv"
  trixie_run_as_user "$root" "$inroot" tshark -r t.pcap -X lua_script:"inferred_$port.lua" "${args[@]}" \
    >"$work/44_$port.tsv" 2>"$work/44_$port.err"
  local n
  n=$(wc -l <"$work/40_$port.tsv")
  if [[ -s "$work/44_$port.err" ]]; then
    echo "FAIL: port $port: tshark 4.4 said: $(head -3 "$work/44_$port.err")"; failures=$((failures + 1))
  elif ! cmp -s "$work/40_$port.tsv" "$work/44_$port.tsv"; then
    echo "FAIL: port $port: tshark 4.0 and 4.4 differ ($n and $(wc -l <"$work/44_$port.tsv") lines)"
    failures=$((failures + 1))
  elif ! python3 - "$work/40_$port.tsv" "$layout" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
fields = [f.split(":") for f in sys.argv[2].split()]
def at(payload, off, size, order):
    return int.from_bytes(bytes.fromhex(payload)[int(off):int(off) + int(size)], order)
wrong = [r for r in rows if [int(x) for x in r[:3]] != [at(r[3], *f) for f in fields]]
if not rows or wrong:
    sys.exit(f"{len(rows)} rows, {len(wrong)} with values other than the payload's bytes")
PY
  then
    failures=$((failures + 1))
  else
    echo "port $port: tshark 4.0 and 4.4 decode the same $n frames, each field the simulator's bytes"
  fi
}
check_flow 59238 "2:2:little 4:2:little 6:4:big"
check_flow 27015 "0:4:big 4:4:big 8:4:little"
[[ $failures -eq 0 ]] && echo "PASS" || { echo "$failures failures"; exit 1; }
