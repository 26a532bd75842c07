-- Every field type and base, for formatValue and the tshark comparison (port 7000).
-- payload: 0a 0b fe ff 80 01 02 03 41 09 01 ff 00 42 43 44 a5 5a 11 22 33 44 55 66 77 88
local p = Proto("tfmt", "Format test")
local F = {
  u8d = ProtoField.uint8("tfmt.u8d", "u8d", base.DEC),
  u8h = ProtoField.uint8("tfmt.u8h", "u8h", base.HEX),
  u8o = ProtoField.uint8("tfmt.u8o", "u8o", base.OCT),
  u8dh = ProtoField.uint8("tfmt.u8dh", "u8dh", base.DEC_HEX),
  u8hd = ProtoField.uint8("tfmt.u8hd", "u8hd", base.HEX_DEC),
  u16h = ProtoField.uint16("tfmt.u16h", "u16h", base.HEX),
  u24h = ProtoField.uint24("tfmt.u24h", "u24h", base.HEX),
  u32h = ProtoField.uint32("tfmt.u32h", "u32h", base.HEX),
  u64h = ProtoField.uint64("tfmt.u64h", "u64h", base.HEX),
  u64d = ProtoField.uint64("tfmt.u64d", "u64d", base.DEC),
  u32o = ProtoField.uint32("tfmt.u32o", "u32o", base.OCT),
  u32dh = ProtoField.uint32("tfmt.u32dh", "u32dh", base.DEC_HEX),
  u32hd = ProtoField.uint32("tfmt.u32hd", "u32hd", base.HEX_DEC),
  i8 = ProtoField.int8("tfmt.i8", "i8", base.DEC),
  i16 = ProtoField.int16("tfmt.i16", "i16"),
  i24 = ProtoField.int24("tfmt.i24", "i24"),
  i32 = ProtoField.int32("tfmt.i32", "i32"),
  i64 = ProtoField.int64("tfmt.i64", "i64"),
  ch = ProtoField.char("tfmt.ch", "ch"),
  bo = ProtoField.bool("tfmt.bo", "bo"),
  bom = ProtoField.bool("tfmt.bom", "bom", 8, nil, 0x04),
  by = ProtoField.bytes("tfmt.by", "by"),
  byc = ProtoField.bytes("tfmt.byc", "byc", base.COLON),
  bys = ProtoField.bytes("tfmt.bys", "bys", base.SPACE),
  byd = ProtoField.bytes("tfmt.byd", "byd", base.DOT),
  bydash = ProtoField.bytes("tfmt.bydash", "bydash", base.DASH),
  e0 = ProtoField.bytes("tfmt.e0", "e0"),
  st = ProtoField.string("tfmt.st", "st"),
  sbad = ProtoField.string("tfmt.sbad", "sbad"),
  no = ProtoField.none("tfmt.no", "no"),
  fn = ProtoField.framenum("tfmt.fn", "fn"),
  vs = ProtoField.uint8("tfmt.vs", "vs", base.DEC, { [10] = "TEN" }),
  m = ProtoField.uint8("tfmt.m", "m", base.DEC, nil, 0xF0),
  mh = ProtoField.uint8("tfmt.mh", "mh", base.HEX, nil, 0xF0),
  mh16 = ProtoField.uint16("tfmt.mh16", "mh16", base.HEX, nil, 0x0FF0),
  sm = ProtoField.int8("tfmt.sm", "sm", base.DEC, nil, 0xF0),
  ip = ProtoField.ipv4("tfmt.ip", "ip"),
  dbl = ProtoField.double("tfmt.dbl", "dbl"),
  fl = ProtoField.float("tfmt.fl", "fl"),
}
local list = {}
for _, v in pairs(F) do list[#list + 1] = v end
p.fields = list
function p.dissector(tvb, pinfo, tree)
  local t = tree:add(p, tvb())
  t:add(F.u8d, tvb(0, 1)); t:add(F.u8h, tvb(0, 1)); t:add(F.u8o, tvb(0, 1)); t:add(F.u8dh, tvb(0, 1))
  t:add(F.u8hd, tvb(0, 1)); t:add(F.u16h, tvb(0, 2)); t:add(F.u24h, tvb(0, 3)); t:add(F.u32h, tvb(0, 4))
  t:add(F.u64h, tvb(0, 8)); t:add(F.u64d, tvb(0, 8)); t:add(F.u32o, tvb(0, 4)); t:add(F.u32dh, tvb(0, 4))
  t:add(F.u32hd, tvb(0, 4))
  t:add(F.i8, tvb(2, 1)); t:add(F.i16, tvb(2, 2)); t:add(F.i24, tvb(2, 3)); t:add(F.i32, tvb(2, 4))
  t:add(F.i64, tvb(2, 8))
  t:add(F.ch, tvb(8, 1)); t:add(F.ch, tvb(9, 1)); t:add(F.ch, tvb(10, 1)); t:add(F.ch, tvb(11, 1))
  t:add(F.ch, tvb(12, 1)); t:add(F.ch, tvb(1, 1))
  t:add(F.bo, tvb(10, 1)); t:add(F.bo, tvb(12, 1)); t:add(F.bom, tvb(0, 1)); t:add(F.bom, 0xff)
  t:add(F.bom, true)
  t:add(F.by, tvb(0, 4)); t:add(F.byc, tvb(0, 4)); t:add(F.bys, tvb(0, 4)); t:add(F.byd, tvb(0, 4))
  t:add(F.bydash, tvb(0, 4)); t:add(F.e0, tvb(0, 0))
  t:add(F.st, tvb(8, 6)); t:add(F.st, tvb(14, 2)); t:add(F.sbad, tvb(2, 4)); t:add(F.st, "a\\b\nc\rd\te")
  t:add(F.no, tvb(0, 2)); t:add(F.no, tvb(0, 0))
  t:add(F.fn, 42); t:add(F.fn, tvb(0, 1), 43)
  t:add(F.vs, tvb(0, 1))
  t:add(F.m, tvb(16, 1)); t:add(F.mh, tvb(16, 1)); t:add(F.m, 0xA0); t:add(F.m, 10); t:add(F.mh16, tvb(16, 2))
  t:add(F.sm, tvb(16, 1)); t:add(F.sm, tvb(17, 1))
  t:add(F.ip, tvb(0, 4))
  t:add(F.dbl, tvb(18, 8)); t:add(F.fl, tvb(18, 4))
end
DissectorTable.get("udp.port"):add(7000, p)
