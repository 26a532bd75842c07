-- Test dissector for the host's value semantics (port 5000).
local p = Proto("tbasic", "Host basics test")
local f = {
  nib_hi = ProtoField.uint8("tbasic.nib_hi", "High nibble", base.DEC, nil, 0xF0),
  nib_lo = ProtoField.uint8("tbasic.nib_lo", "Low nibble", base.HEX, { [3] = "three" }, 0x0F),
  mid = ProtoField.uint16("tbasic.mid", "Middle bits", base.HEX, nil, 0x0FF0),
  flag = ProtoField.bool("tbasic.flag", "Flag", 8, { "yes", "no" }, 0x04),
  plain_bool = ProtoField.bool("tbasic.plain_bool", "Plain bool"),
  s4 = ProtoField.int8("tbasic.s4", "Signed nibble", base.DEC, nil, 0xF0),
  s8 = ProtoField.int8("tbasic.s8", "Signed byte"),
  s16le = ProtoField.int16("tbasic.s16le", "Signed LE"),
  u32le = ProtoField.uint32("tbasic.u32le", "LE"),
  u64 = ProtoField.uint64("tbasic.u64", "U64", base.HEX),
  str = ProtoField.string("tbasic.str", "String"),
  raw = ProtoField.bytes("tbasic.raw", "Raw", base.COLON),
  marker = ProtoField.none("tbasic.marker", "Marker"),
  fnum = ProtoField.framenum("tbasic.fnum", "Frame"),
  newf = ProtoField.new("New-style", "tbasic.newf", ftypes.UINT16, nil, base.DEC),
}
local list = {}
for _, v in pairs(f) do list[#list + 1] = v end
p.fields = list

-- payload: a5 5a 0b fe ff 01 02 03 04 11 22 33 44 55 66 77 88 41 42
function p.dissector(tvb, pinfo, tree)
  local t = tree:add(p, tvb(), "basics")
  t:add(f.nib_hi, tvb(0, 1))           -- 0xa5 -> 10
  t:add(f.nib_lo, tvb(0, 1))           -- 5
  t:add(f.nib_hi, 0xA0)                -- explicit value, masked+shifted -> 10
  t:add(f.nib_hi, 10)                  -- -> 0
  t:add(f.mid, tvb(0, 2))              -- 0xa55a & 0x0ff0 >> 4 = 0x55
  t:add(f.flag, tvb(0, 1))             -- 0xa5 & 4 -> 1
  t:add(f.flag, true)                  -- true = 1, & 4 -> 0
  t:add(f.flag, 0x04)                  -- 1
  t:add(f.plain_bool, tvb(2, 1))       -- 1
  t:add(f.s4, tvb(0, 1))               -- 0xa -> -6
  t:add(f.s4, tvb(1, 1))               -- 0x5 -> 5
  t:add(f.s8, tvb(3, 1))               -- 0xfe -> -2
  t:add_le(f.s16le, tvb(3, 2))         -- 0xfffe -> -2
  t:add_le(f.u32le, tvb(5, 4))         -- 0x04030201 = 67305985
  t:add(f.u64, tvb(9, 8))              -- 0x1122334455667788
  t:add(f.str, tvb(17, 2))             -- "AB"
  t:add(f.raw, tvb(0, 3))              -- a5:5a:0b
  t:add(f.marker, tvb(0, 0))
  t:add(f.fnum, pinfo.number)
  t:add(f.newf, tvb(5, 2))             -- 0x0102 = 258
  pinfo.cols.protocol = "TBASIC"
  pinfo.cols.info:set("n=" .. tvb(0, 1):uint())
  pinfo.cols.info:append(" le=" .. tvb(5, 4):le_uint())
  pinfo.cols.info:prepend("[")
end
DissectorTable.get("udp.port"):add(5000, p)
