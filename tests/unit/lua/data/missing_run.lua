-- Uses an API the host does not provide, while dissecting (port 5002).
local p = Proto("tmissrun", "Missing API at run time")
local b = ProtoField.uint8("tmissrun.b", "Byte")
p.fields = { b }
function p.dissector(tvb, pinfo, tree)
  tree:add(b, tvb(0, 1))
  if tvb(0, 1):uint() == 1 then
    local x = tvb:foo()
  elseif tvb(0, 1):uint() == 2 then
    local l = Listener.new("udp")
  end
end
DissectorTable.get("udp.port"):add(5002, p)
