#!/usr/bin/env bash
# Compares rudpscope-cli decode with tshark on every capture under the folders
# given (third-party corpora kept outside the project, e.g. ../shared/corpus):
# frame count and five fields per frame (frame.number, ip.src, udp.srcport,
# tcp.seq, tcp.len), as issue 12's sweep did. Prints one line per file that
# differs and the totals.
#
# usage: tests/corpus/sweep_vs_tshark.sh BUILD_DIR DIR...   (BUILD_DIR e.g. build/dev)
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 BUILD_DIR DIR..." >&2; exit 2; }
CLI="$1/analysis/cli/rudpscope-cli"
[[ -x "$CLI" ]] || { echo "no $CLI: build rudpscope-cli first" >&2; exit 2; }
shift
fields=(-e frame.number -e ip.src -e udp.srcport -e tcp.seq -e tcp.len)
same=0 differ=0 refused=0 tshark_refuses=0
while IFS= read -r -d '' f; do
  theirs="$(timeout 60 tshark -n -r "$f" -o tcp.relative_sequence_numbers:FALSE -T fields "${fields[@]}" 2>/dev/null)"
  trc=$?
  ours="$(timeout 60 "$CLI" decode "$f" "${fields[@]}" 2>/tmp/sweep.err)"
  orc=$?
  if [[ -z "$theirs" && $trc -ne 0 ]]; then ((tshark_refuses++)); continue; fi
  if [[ $orc -ne 0 && -z "$ours" ]]; then
    ((refused++)); echo "refused  $f: $(head -c 160 /tmp/sweep.err)"; continue
  fi
  if [[ "$ours" == "$theirs" ]]; then ((same++)); continue; fi
  ((differ++))
  echo "differ   $f: $(diff <(echo "$ours") <(echo "$theirs") | grep -c '^[<>]') lines, frames $(echo -n "$ours" | grep -c .)/$(echo -n "$theirs" | grep -c .)"
done < <(find "$@" -type f \( -name '*.pcap' -o -name '*.pcapng' -o -name '*.cap' -o -name '*.gz' -o -name '*.zst' -o -name '*.snoop' -o -name '*.pcap.*' \) -print0 | sort -z)
echo "files: $((same + differ + refused + tshark_refuses)); same as tshark: $same; differ: $differ; refused by rudpscope: $refused; unreadable by tshark: $tshark_refuses"
