# Keeps, from tshark -V output, the top-level subtrees of the given protocols
# (names: a file with one protocol name per line, as `tshark -G protocols`
# lists them), each line prefixed with its frame number.
BEGIN {
  while ((getline line < names) > 0) if (line != "") ours[++n] = line
  if (n == 0) { print "our_subtrees.awk: no protocol names in " names > "/dev/stderr"; exit 2 }
}
/^Frame [0-9]+: / { frame = $2; sub(/:$/, "", frame) }
/^$/ { keep = 0; next }
/^[^ ]/ { keep = is_ours($0) }
keep { print frame "\t" $0 }
function is_ours(label,    i, rest) {
  for (i = 1; i <= n; i++) {
    if (index(label, ours[i]) != 1) continue
    rest = substr(label, length(ours[i]) + 1, 1)
    if (rest == "" || rest == " " || rest == ",") return 1
  }
  return 0
}
