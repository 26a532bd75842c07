--[==[ rudpscope.contract
return { version = 1, proto = "tbadc", seq = "tbadc.sequence" }
]==]
local p = Proto("tbadc", "Bad contract test")
local seq = ProtoField.uint32("tbadc.seq", "Seq")
p.fields = { seq }
function p.dissector(tvb, pinfo, tree) tree:add(seq, tvb(0, 4)) end
