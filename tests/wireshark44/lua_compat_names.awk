# Reads `luac5.4 -l -p FILE` listings and prints FILE:LINE: NAME for every use
# of a Lua name that is deprecated or gone in Lua 5.3/5.4 but present in 5.2
# (so a dissector using it runs in Wireshark 4.0 and breaks, or only keeps
# running through a compatibility build flag, in 4.4). Wireshark 4.4 prints no
# message for these (it turns Lua 5.4 warnings off), hence this check.
# `unpack` is allowed: `table.unpack or unpack` is the documented idiom.
BEGIN {
  split("bit32 loadstring setfenv getfenv module gcinfo newproxy", g, " ")
  for (i in g) bad_global[g[i]] = 1
  split("math.pow math.ldexp math.frexp math.cosh math.sinh math.tanh math.log10 math.mod " \
        "table.getn table.setn table.maxn table.foreach table.foreachi string.gfind", m, " ")
  for (i in m) bad_member[m[i]] = 1
}
/^(main|function) </ { file = $2; sub(/^</, "", file); sub(/:[0-9,]+>$/, "", file); next }
{ line = $2; gsub(/[][]/, "", line) }
$3 == "GETTABUP" && $8 == "_ENV" {
  name = $9; gsub(/"/, "", name)
  if (name in bad_global) report(name)
  env_reg = $4; env_name = name; env_pc = $1; next
}
$3 == "GETFIELD" && $1 == env_pc + 1 && $5 == env_reg {
  member = $8; gsub(/"/, "", member)
  if ((env_name "." member) in bad_member) report(env_name "." member)
}
{ env_pc = -1 }
function report(what) { print file ":" line ": " what; found++ }
END { exit found ? 1 : 0 }
