-- Adds to a parent after adding into a later subtree: values must come out in tree order (port 5004).
local p = Proto("torder", "Tree order test")
local a = ProtoField.uint8("torder.a", "A")
local b = ProtoField.uint8("torder.b", "B")
p.fields = { a, b }
function p.dissector(tvb, pinfo, tree)
  local t1 = tree:add(p, tvb(0, 1))
  local t2 = tree:add(p, tvb(1, 1))
  t2:add(a, tvb(1, 1))
  t1:add(a, tvb(0, 1))
  t1:add(b, tvb(0, 1))
end
DissectorTable.get("udp.port"):add(5004, p)
