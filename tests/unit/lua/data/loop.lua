-- Loops forever on payloads starting with 1 (port 5003).
local p = Proto("tloop", "Infinite loop test")
local b = ProtoField.uint8("tloop.b", "Byte")
p.fields = { b }
function p.dissector(tvb, pinfo, tree)
  tree:add(b, tvb(0, 1))
  local n = 0
  while tvb(0, 1):uint() == 1 do n = n + 1 end
end
DissectorTable.get("udp.port"):add(5003, p)
