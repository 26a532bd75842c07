-- A dissector that reads fields through Field.new, for test_lua_field.cpp:
-- rudpscope and tshark 4.0 must print the same values for it. Every value is
-- written with tostring, len, typeof of .value and the value itself.
local p = Proto("freader", "Field reader")
local f = {
  ip_src = ProtoField.string("freader.ip_src", "ip.src"),
  ip_addr = ProtoField.string("freader.ip_addr", "ip.addr"),
  ipv6_dst = ProtoField.string("freader.ipv6_dst", "ipv6.dst"),
  ip_ttl = ProtoField.string("freader.ip_ttl", "ip.ttl"),
  udp_srcport = ProtoField.string("freader.udp_srcport", "udp.srcport"),
  udp_port = ProtoField.string("freader.udp_port", "udp.port"),
  udp_length = ProtoField.string("freader.udp_length", "udp.length"),
  first = ProtoField.uint8("freader.first", "First byte", base.HEX),
  word = ProtoField.uint16("freader.word", "Second and third bytes"),
  tail = ProtoField.bytes("freader.tail", "Last bytes"),
  label = ProtoField.string("freader.label", "Label"),
  own = ProtoField.string("freader.own", "Own fields read back"),
  count = ProtoField.uint8("freader.count", "Occurrences of freader.first"),
}
p.fields = f

local ip_src, ip_addr = Field.new("ip.src"), Field.new("ip.addr")
local ipv6_dst, ip_ttl = Field.new("ipv6.dst"), Field.new("ip.ttl")
local udp_srcport, udp_port, udp_length = Field.new("udp.srcport"), Field.new("udp.port"), Field.new("udp.length")
-- This file's own fields, before they are registered.
local first, word, tail, label = Field.new("freader.first"), Field.new("freader.word"), Field.new("freader.tail"),
    Field.new("freader.label")

-- Wireshark's typeof indexes its argument: userdata only.
local function kind(v)
  return type(v) == "userdata" and typeof(v) or type(v)
end

local function describe(...)
  local out = {}
  for _, fi in ipairs({...}) do
    out[#out + 1] = tostring(fi) .. "/" .. fi.len .. "/" .. kind(fi.value) .. "/" .. tostring(fi.value) .. "/" .. fi.name
  end
  return #out == 0 and "none" or table.concat(out, ";")
end

function p.dissector(tvb, pinfo, tree)
  local t = tree:add(p, tvb())
  for name, field in pairs({ip_src = ip_src, ip_addr = ip_addr, ipv6_dst = ipv6_dst, ip_ttl = ip_ttl,
                            udp_srcport = udp_srcport, udp_port = udp_port, udp_length = udp_length}) do
    t:add(f[name], describe(field()))
  end
  if tvb:len() >= 8 then
    t:add(f.first, tvb(0, 1))
    t:add(f.word, tvb(1, 2))
    t:add(f.tail, tvb(tvb:len() - 3, 3))
    t:add(f.label, tvb(3, 2), "x" .. tvb(3, 1):uint())
    t:add(f.first, tvb(4, 1))
    local a, b = first()
    local r = tail().range
    t:add(f.own, describe(first()) .. "|" .. describe(word()) .. "|" .. describe(tail()) .. "|" .. describe(label())
      .. "|" .. tostring(r:bytes()) .. "/" .. r:len() .. "|" .. tostring(a()) .. "/" .. #b .. "/" .. tostring(b.range:uint()))
  end
  t:add(f.count, select("#", first()))
end

DissectorTable.get("udp.port"):add(7777, p)
