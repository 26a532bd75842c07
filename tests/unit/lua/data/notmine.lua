-- Port 6000: adds a field then declines; a heuristic claims payloads starting with "HI".
local p = Proto("tnotmine", "Decline test")
local seen = ProtoField.uint8("tnotmine.seen", "Seen")
local heur = ProtoField.string("tnotmine.heur", "Heuristic")
p.fields = { seen, heur }
function p.dissector(tvb, pinfo, tree)
  tree:add(seen, tvb(0, 1))
  return 0
end
p:register_heuristic("udp", function(tvb, pinfo, tree)
  if tvb:len() >= 2 and tvb(0, 2):string() == "HI" then
    tree:add(heur, tvb(0, 2))
    return true
  end
  return false
end)
DissectorTable.get("udp.port"):add(6000, p)
