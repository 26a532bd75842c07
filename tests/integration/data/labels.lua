-- A dissector that uses every label feature the details tree supports, for
-- tests/integration/test_decode_details.cpp (run on GRUDP traffic, port 7777).
local p = Proto("labels", "Label Test Protocol")
local NAMES = { [0] = "DATA", [1] = "ACK", [2] = "CONNECT", [3] = "ACCEPT" }
local f = {
  magic   = ProtoField.uint16("labels.magic", "Magic", base.HEX_DEC),
  magic_o = ProtoField.uint16("labels.magic_oct", "Magic (octal)", base.OCT),
  magic_d = ProtoField.uint16("labels.magic_dh", "Magic (dec-hex)", base.DEC_HEX),
  ver     = ProtoField.uint8("labels.version", "Version", base.DEC, nil, 0xF0),
  typ     = ProtoField.uint8("labels.type", "Type", base.HEX, NAMES, 0x0F),
  typ_d   = ProtoField.uint8("labels.type_dec", "Type (dec)", base.DEC, NAMES, 0x0F),
  flags   = ProtoField.uint8("labels.flags", "Flags", base.HEX),
  rel     = ProtoField.bool("labels.flags.reliable", "Reliable", 8, nil, 0x01),
  ack     = ProtoField.bool("labels.flags.ack", "Ack", 8, nil, 0x08),
  conn    = ProtoField.uint32("labels.conn", "Connection", base.HEX),
  conn_hi = ProtoField.uint32("labels.conn_hi", "Connection high bits", base.HEX, nil, 0xFFF00000),
  seq     = ProtoField.uint32("labels.seq", "Sequence", base.DEC),
  sseq    = ProtoField.int32("labels.seq_signed", "Sequence (signed)", base.DEC),
  ts16    = ProtoField.int16("labels.ts16", "Low timestamp bits", base.DEC, nil, 0x0FF0),
  word    = ProtoField.uint16("labels.word", "Word", base.DEC, nil, 0x3FFF),
  count   = ProtoField.uint8("labels.count", "Count", base.DEC),
  text    = ProtoField.string("labels.text", "Text"),
  payload = ProtoField.bytes("labels.payload", "Payload"),
  empty   = ProtoField.bytes("labels.empty", "Empty"),
  none    = ProtoField.none("labels.none", "Marker"),
}
p.fields = f
local e_note = ProtoExpert.new("labels.note", "A note about the packet", expert.group.SEQUENCE, expert.severity.NOTE)
local e_warn = ProtoExpert.new("labels.warn", "A warning", expert.group.PROTOCOL, expert.severity.WARN)
p.experts = { e_note, e_warn }

function p.dissector(tvb, pinfo, tree)
  if tvb:len() < 28 then return 0 end
  pinfo.cols.protocol = "LABELS"
  local t = tree:add(p, tvb(0, tvb:len()))
  t:append_text(", " .. tvb:len() .. " bytes")
  t:add(f.magic, tvb(0, 2))
  t:add(f.magic_o, tvb(0, 2))
  t:add(f.magic_d, tvb(0, 2))
  t:add(f.ver, tvb(2, 1))
  t:add(f.typ, tvb(2, 1))
  t:add(f.typ_d, tvb(2, 1)):prepend_text("[before] ")
  local ft = t:add(f.flags, tvb(3, 1))
  ft:add(f.rel, tvb(3, 1))
  ft:add(f.ack, tvb(3, 1)):set_generated()
  ft:append_text(" (flags)")
  t:add(f.conn, tvb(4, 4))
  t:add(f.conn_hi, tvb(4, 4))
  local s = t:add(f.seq, tvb(8, 4))
  s:set_text("Sequence, said otherwise: " .. tvb(8, 4):uint())
  s:append_text(" (appended)")
  t:add(f.sseq, tvb(8, 4))
  t:add(f.ts16, tvb(16, 2))
  t:add(f.word, tvb(18, 2))
  t:add(f.count, 7, "seven", "things", 8)
  t:add(f.count, 3):set_hidden()
  t:add(f.text, "hello")
  local sub = t:add(tvb(12, 8), "A text item", "with", "more")
  sub:add(f.none, tvb(12, 1))
  sub:add_proto_expert_info(e_note)
  sub:add_proto_expert_info(e_warn, "A warning with its own text")
  t:add(f.empty, tvb(0, 0))
  if tvb:len() > 28 then t:add(f.payload, tvb(28, tvb:len() - 28)) end
  return tvb:len()
end

DissectorTable.get("udp.port"):add(7777, p)
