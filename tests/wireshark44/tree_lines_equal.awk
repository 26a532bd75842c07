# Compares two files of -V subtree lines (4.0 first, 4.4 second) line by line.
# Equal lines match; so does the one rendering difference of Wireshark's own:
# 4.0 shows at most 36 bytes of a bytes field and ends the label with "…",
# 4.4 shows more and marks a label it cut as "Name […]: ...". Such a pair
# matches when 4.4's bytes start with 4.0's. Prints the first differing pairs
# and exits 1; prints "elided N" (pairs matched that way) otherwise.
NR == FNR { a[FNR] = $0; na = FNR; next }
{ b[FNR] = $0; nb = FNR }
END {
  n = na > nb ? na : nb
  for (i = 1; i <= n; i++) {
    if (a[i] == b[i]) continue
    if (bytes_elided(a[i], b[i])) { elided++; continue }
    if (shown++ < 3) { print "< " a[i]; print "> " b[i] }
  }
  if (shown) exit 1
  print "elided " elided + 0
}
function bytes_elided(old, new,    cut, head, bytes) {
  if (old !~ /…$/) return 0
  cut = old; sub(/…$/, "", cut)
  cut = index(cut, ": ") ? cut : ""
  if (cut == "") return 0
  head = substr(cut, 1, index(cut, ": ") - 1)
  bytes = substr(cut, index(cut, ": ") + 2)
  if (index(new, head ": " bytes) == 1) return 1
  return index(new, head " […]: " bytes) == 1
}
