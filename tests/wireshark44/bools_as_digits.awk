# tshark 4.4 prints a boolean field as True/False in -T fields output where
# 4.0 prints 1/0 (the one documented difference). Rewrites only the given
# columns (cols="2,5,9", 1-based), each occurrence of an aggregated value
# separately; any other value is left as it is, so it still fails to compare.
BEGIN {
  FS = OFS = "\t"
  n = split(cols, c, ",")
  digit["True"] = "1"; digit["False"] = "0"
}
{
  for (i = 1; i <= n; i++) {
    col = c[i] + 0
    if (col > NF || $col == "") continue
    m = split($col, v, ",")
    out = ""
    for (j = 1; j <= m; j++) out = out (j > 1 ? "," : "") ((v[j] in digit) ? digit[v[j]] : v[j])
    $col = out
  }
  print
}
