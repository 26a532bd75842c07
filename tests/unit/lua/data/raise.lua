-- Raises on payloads starting with 0xEE, after adding one field (port 5001).
local p = Proto("traise", "Raising test")
local first = ProtoField.uint8("traise.first", "First byte", base.HEX)
p.fields = { first }
function p.dissector(tvb, pinfo, tree)
  tree:add(first, tvb(0, 1))
  if tvb(0, 1):uint() == 0xEE then
    error("boom on purpose")
  end
  if tvb(0, 1):uint() == 0xEF then
    return tvb(100, 4):uint()          -- line 11: Range is out of bounds
  end
  if tvb(0, 1):uint() == 0xF0 then
    local v = tvb(0, 5):uint()         -- line 14: 5 byte integer
  end
end
DissectorTable.get("udp.port"):add(5001, p)
