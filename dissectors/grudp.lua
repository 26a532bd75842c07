-- grudp.lua: Wireshark dissector for GRUDP v1, the game's reliable-UDP header
-- (docs: shared/protocol/grudp-v1.md). Runs unchanged in Wireshark 4.0
-- (Lua 5.2), Wireshark 4.4+ (Lua 5.4) and rudpscope's Lua host: it uses the
-- `bit` library instead of 5.3 operators and math.floor for computed offsets.
--
-- Install: copy into Wireshark's personal Lua plugins folder, or
--   tshark -X lua_script:grudp.lua ...
-- UDP port 7777 by default (preference grudp.port, e.g. -o grudp.port:9999),
-- plus a heuristic on UDP ("grudp_udp"): magic "RU", version 1, type <= 6,
-- reserved flag bits zero and 32 + length == UDP payload length.
--
-- Protocol column: "GRUDP".
-- Info column:  <TYPE> seq=<seq>[ ack=<ack>][ [<flags>]][ frag=<index+1>/<count>]
--   TYPE   DATA, ACK, CONNECT, ACCEPT, DISCONNECT, PING, PONG or TYPE<n>
--   ack    only when the ACK flag is set
--   flags  letters for RELIABLE (R), UNSEQUENCED (U), FRAGMENT (F), only if any
--   e.g.   "DATA seq=1201 ack=877 [R]", "ACK seq=878 ack=1201",
--          "DATA seq=7 [RF] frag=2/3"
--   Malformed datagrams: "GRUDP malformed: <reason>" (expert info, group Malformed).

--[==[ rudpscope.contract
return {
  version = 1,
  proto = "grudp",
  conn_id = "grudp.conn_id",
  kind = {
    field = "grudp.type",
    roles = { [0] = "data", [1] = "ack", [2] = "connect", [3] = "accept",
              [4] = "disconnect", [5] = "ping", [6] = "pong" },
  },
  seq = { field = "grudp.seq", bits = 32 },
  reliable = "grudp.flags.reliable",
  unsequenced = "grudp.flags.unsequenced",
  ack = { style = "highest+bitmap", field = "grudp.ack", bitmap = "grudp.ack_bits",
          valid = "grudp.flags.ack" },
  ts = { field = "grudp.ts", echo = "grudp.ts_echo", echo_valid = "grudp.flags.echo",
         unit_ms = 1, bits = 32 },
  channel = "grudp.channel",
  length = "grudp.length",
  window = "grudp.window",
}
]==]

local grudp = Proto("grudp", "Game Reliable UDP")

local HEADER_LEN = 32
local MAGIC = 0x5255
local TYPE_NAMES = { [0] = "DATA", [1] = "ACK", [2] = "CONNECT", [3] = "ACCEPT",
                     [4] = "DISCONNECT", [5] = "PING", [6] = "PONG" }

local f = {
  magic     = ProtoField.uint16("grudp.magic", "Magic", base.HEX),
  version   = ProtoField.uint8("grudp.version", "Version", base.DEC, nil, 0xF0),
  type      = ProtoField.uint8("grudp.type", "Type", base.DEC, TYPE_NAMES, 0x0F),
  flags     = ProtoField.uint8("grudp.flags", "Flags", base.HEX),
  reliable  = ProtoField.bool("grudp.flags.reliable", "Reliable", 8, nil, 0x01),
  unseq     = ProtoField.bool("grudp.flags.unsequenced", "Unsequenced", 8, nil, 0x02),
  fragment  = ProtoField.bool("grudp.flags.fragment", "Fragment", 8, nil, 0x04),
  ackflag   = ProtoField.bool("grudp.flags.ack", "Ack valid", 8, nil, 0x08),
  echo      = ProtoField.bool("grudp.flags.echo", "Echo valid", 8, nil, 0x10),
  conn_id   = ProtoField.uint32("grudp.conn_id", "Connection ID", base.HEX),
  seq       = ProtoField.uint32("grudp.seq", "Sequence number", base.DEC),
  ack       = ProtoField.uint32("grudp.ack", "Acknowledged sequence", base.DEC),
  ack_bits  = ProtoField.uint32("grudp.ack_bits", "Ack bitmap", base.HEX),
  ts        = ProtoField.uint32("grudp.ts", "Timestamp (ms)", base.DEC),
  ts_echo   = ProtoField.uint32("grudp.ts_echo", "Timestamp echo (ms)", base.DEC),
  length    = ProtoField.uint16("grudp.length", "Payload length", base.DEC),
  channel   = ProtoField.uint8("grudp.channel", "Channel", base.DEC),
  window    = ProtoField.uint8("grudp.window", "Receive window", base.DEC),
  msg_id    = ProtoField.uint16("grudp.frag.msg_id", "Fragment message id", base.DEC),
  frag_idx  = ProtoField.uint8("grudp.frag.index", "Fragment index", base.DEC),
  frag_cnt  = ProtoField.uint8("grudp.frag.count", "Fragment count", base.DEC),
  payload   = ProtoField.bytes("grudp.payload", "Payload"),
}
grudp.fields = { f.magic, f.version, f.type, f.flags, f.reliable, f.unseq, f.fragment,
                 f.ackflag, f.echo, f.conn_id, f.seq, f.ack, f.ack_bits, f.ts, f.ts_echo,
                 f.length, f.channel, f.window, f.msg_id, f.frag_idx, f.frag_cnt, f.payload }

local e_short = ProtoExpert.new("grudp.short", "Datagram shorter than the 32-byte GRUDP header",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_magic = ProtoExpert.new("grudp.bad_magic", "Bad magic (expected 0x5255)",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_version = ProtoExpert.new("grudp.bad_version", "Unsupported version (expected 1)",
                                  expert.group.MALFORMED, expert.severity.ERROR)
local e_length = ProtoExpert.new("grudp.bad_length", "Length field disagrees with the datagram size",
                                 expert.group.MALFORMED, expert.severity.ERROR)
local e_reserved = ProtoExpert.new("grudp.reserved_flags", "Reserved flag bits set",
                                   expert.group.MALFORMED, expert.severity.ERROR)
local e_type = ProtoExpert.new("grudp.reserved_type", "Reserved packet type",
                               expert.group.PROTOCOL, expert.severity.WARN)
grudp.experts = { e_short, e_magic, e_version, e_length, e_reserved, e_type }

grudp.prefs.port = Pref.uint("UDP port", 7777, "UDP port GRUDP is decoded on")

local band = bit.band
local floor = math.floor
local format = string.format
-- The Info column's flag letters by the low three flag bits. One format call
-- per packet builds the Info text: each `..` would make a string of its own,
-- and that was a tenth of rudpscope's ingest time.
local FLAG_TEXT = { [0] = "", " [R]", " [U]", " [RU]", " [F]", " [RF]", " [UF]", " [RUF]" }
local udp_port = DissectorTable.get("udp.port")
local registered_port = 7777

function grudp.prefs_changed()
  if grudp.prefs.port ~= registered_port then
    if registered_port ~= 0 then udp_port:remove(registered_port, grudp) end
    registered_port = grudp.prefs.port
    if registered_port ~= 0 then udp_port:add(registered_port, grudp) end
  end
end

-- Header fields of a datagram shorter than the header: those whose bytes are there.
local SHORT_FIELDS = {
  { f.magic, 0, 2 }, { f.version, 2, 1 }, { f.type, 2, 1 }, { f.flags, 3, 1 },
  { f.conn_id, 4, 4 }, { f.seq, 8, 4 }, { f.ack, 12, 4 }, { f.ack_bits, 16, 4 },
  { f.ts, 20, 4 }, { f.ts_echo, 24, 4 }, { f.length, 28, 2 }, { f.channel, 30, 1 },
}

local function dissect_short(tvb, pinfo, t, len)
  for i = 1, #SHORT_FIELDS do
    local e = SHORT_FIELDS[i]
    if e[2] + e[3] <= len then t:add(e[1], tvb(e[2], e[3])) end
  end
  t:add_proto_expert_info(e_short)
  pinfo.cols.info = "GRUDP malformed: " .. len .. " bytes, shorter than the header"
end

function grudp.dissector(tvb, pinfo, tree)
  local len = tvb:len()
  pinfo.cols.protocol = "GRUDP"
  local t = tree:add(grudp, tvb(0, len))
  if len < HEADER_LEN then
    dissect_short(tvb, pinfo, t, len)
    return len
  end

  local r = tvb(0, 2)
  t:add(f.magic, r)
  local magic = r:uint()
  r = tvb(2, 1)
  t:add(f.version, r)
  t:add(f.type, r)
  local vt = r:uint()
  local version = floor(vt / 16)
  local ptype = vt % 16
  r = tvb(3, 1)
  local flags = r:uint()
  local ft = t:add(f.flags, r)
  ft:add(f.reliable, r)
  ft:add(f.unseq, r)
  ft:add(f.fragment, r)
  ft:add(f.ackflag, r)
  ft:add(f.echo, r)
  t:add(f.conn_id, tvb(4, 4))
  r = tvb(8, 4)
  t:add(f.seq, r)
  local seq = r:uint()
  r = tvb(12, 4)
  t:add(f.ack, r)
  local ack = r:uint()
  t:add(f.ack_bits, tvb(16, 4))
  t:add(f.ts, tvb(20, 4))
  t:add(f.ts_echo, tvb(24, 4))
  r = tvb(28, 2)
  t:add(f.length, r)
  local plen = r:uint()
  t:add(f.channel, tvb(30, 1))
  t:add(f.window, tvb(31, 1))

  local problem
  if magic ~= MAGIC then
    t:add_proto_expert_info(e_magic)
    problem = "bad magic"
  end
  if version ~= 1 then
    t:add_proto_expert_info(e_version)
    problem = problem or "bad version"
  end
  if band(flags, 0xE0) ~= 0 then
    t:add_proto_expert_info(e_reserved)
    problem = problem or "reserved flags set"
  end
  if HEADER_LEN + plen ~= len then
    t:add_proto_expert_info(e_length)
    problem = problem or "length mismatch"
  end
  if ptype > 6 then t:add_proto_expert_info(e_type) end

  -- Payload: the bytes the length field announces, as far as they are there.
  local avail = len - HEADER_LEN
  if plen < avail then avail = plen end
  local fragment = band(flags, 0x04) ~= 0
  local frag_idx, frag_cnt
  if avail > 0 then
    if fragment and avail >= 4 then
      t:add(f.msg_id, tvb(32, 2))
      r = tvb(34, 1)
      t:add(f.frag_idx, r)
      frag_idx = r:uint()
      r = tvb(35, 1)
      t:add(f.frag_cnt, r)
      frag_cnt = r:uint()
    end
    t:add(f.payload, tvb(HEADER_LEN, avail))
  end

  if problem then
    pinfo.cols.info = "GRUDP malformed: " .. problem
    return len
  end
  local name = TYPE_NAMES[ptype] or ("TYPE" .. ptype)
  local info
  if band(flags, 0x08) ~= 0 then
    info = format("%s seq=%d ack=%d%s", name, seq, ack, FLAG_TEXT[band(flags, 0x07)])
  else
    info = format("%s seq=%d%s", name, seq, FLAG_TEXT[band(flags, 0x07)])
  end
  if frag_cnt then info = format("%s frag=%d/%d", info, frag_idx + 1, frag_cnt) end
  pinfo.cols.info = info
  return len
end

local function heuristic(tvb, pinfo, tree)
  local len = tvb:len()
  if len < HEADER_LEN then return false end
  if tvb(0, 2):uint() ~= MAGIC then return false end
  local vt = tvb(2, 1):uint()
  if floor(vt / 16) ~= 1 or vt % 16 > 6 then return false end
  if band(tvb(3, 1):uint(), 0xE0) ~= 0 then return false end
  if HEADER_LEN + tvb(28, 2):uint() ~= len then return false end
  grudp.dissector(tvb, pinfo, tree)
  return true
end
grudp:register_heuristic("udp", heuristic)
-- Only a Proto that has a dissector can go into a table.
udp_port:add(registered_port, grudp)
