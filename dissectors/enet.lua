-- enet.lua: Wireshark dissector for ENet 1.3 (lsalzman/enet, enet/protocol.h).
-- Runs unchanged in Wireshark 4.0 (Lua 5.2), Wireshark 4.4+ (Lua 5.4) and
-- rudpscope's Lua host: `bit` library, no 5.3 operators, math.floor offsets.
--
-- Install: copy into Wireshark's personal Lua plugins folder, or
--   tshark -X lua_script:enet.lua ...
--
-- Datagram (all fields big-endian):
--   peerID u16: low 12 bits peer id (0xFFF before the peer has one), bits
--     12-13 session, 0x4000 COMPRESSED, 0x8000 SENT_TIME
--   sentTime u16 (sender's ms modulo 65536) only when SENT_TIME is set
--   checksum u32 only when the hosts enable checksums (preference)
--   then commands until the end, each: command u8 (low 4 bits the number,
--   0x80 ACKNOWLEDGE requested, 0x40 UNSEQUENCED), channelID u8,
--   reliableSequenceNumber u16, the command's fixed fields, then dataLength
--   bytes of data for SEND_* commands. Command sizes: ACK 8, CONNECT 48,
--   VERIFY_CONNECT 44, DISCONNECT 8, PING 4, SEND_RELIABLE 6,
--   SEND_UNRELIABLE 8, SEND_FRAGMENT 24, SEND_UNSEQUENCED 8,
--   BANDWIDTH_LIMIT 12, THROTTLE_CONFIGURE 16, SEND_UNRELIABLE_FRAGMENT 24.
-- A COMPRESSED datagram's commands are range-coded: shown as bytes only.
--
-- Sequence spaces: reliable sequence numbers are 16-bit and per channel;
-- the commands of the peer itself (CONNECT, VERIFY_CONNECT, DISCONNECT, PING,
-- BANDWIDTH_LIMIT, THROTTLE_CONFIGURE) use channel 0xFF's own space.
-- enet.reliable_seq is the header field of every command (for unreliable
-- commands: the channel's last reliable number). enet.data.seq repeats it
-- only for commands that take a new reliable number on a data channel
-- (ACKNOWLEDGE flag, channel < 0xFF), and enet.ack.data_seq the acked number
-- of an ACK for such a command. The analysis contract uses the header's
-- enet.reliable_seq of reliable commands and enet.ack.received_seq, with one
-- sequence space per channel (seq.space), 0xFF included; unreliable commands
-- are numbered by enet.unreliable_seq (per channel, restarting after each
-- reliable number) and unsequenced ones by enet.unsequenced_group (per peer).
--
-- Registration: heuristic on UDP ("enet_udp", on by default) that claims a
-- datagram only when it parses completely: not COMPRESSED, at least one
-- command, every command number 1..12 with the flags ENet gives it (ACK none,
-- SEND_UNRELIABLE(_FRAGMENT) none, SEND_UNSEQUENCED UNSEQUENCED, the others
-- ACKNOWLEDGE; DISCONNECT any), peer commands on channel 0xFF, CONNECT only
-- with peer id 0xFFF, an ACK's header sequence number equal to the number it
-- acknowledges (ENet writes both), reliable commands only in datagrams with a
-- sent time, and the commands ending exactly at the end of the datagram; and
-- only while at least as many of the address pair's datagrams parsed as ENet
-- as did not (one datagram of another protocol's flow that happens to parse,
-- e.g. a RakNet NAK, is not ENet). Preferences:
--   enet.ports     UDP ports always decoded as ENet (range, default none:
--                  ENet has no standard port)
--   enet.checksum  the hosts use enet_crc32 checksums (default off)
--
-- Protocol column: "ENet".
-- Info column: one entry per command, joined by " | ":
--   <NAME>[ ch=<channel>] seq=<reliable seq>[ <details>]
--   ACK ch=0 seq=12 ack=12 sent=4711, SEND_RELIABLE ch=0 seq=13 len=40,
--   SEND_UNRELIABLE ch=1 seq=13 useq=7 len=30, SEND_UNSEQUENCED ch=2 group=5 len=20,
--   SEND_FRAGMENT ch=0 seq=14 frag=1/3 start=14 len=1356, PING seq=3,
--   CONNECT seq=1 id=0x1234abcd, DISCONNECT seq=9
--   ch= is left out on channel 0xFF. Prefixed "[sent=<sentTime>] " when
--   the header has a sent time.
--   Malformed: "ENet malformed: <reason>" (expert info, group Malformed).

--[==[ rudpscope.contract
return {
  version = 1,
  proto = "enet",
  segment = "enet.command",
  kind = {
    field = "enet.cmd",
    roles = { [1] = "ack", [2] = "connect", [3] = "accept", [4] = "disconnect", [5] = "ping",
              [6] = "data reliable", [7] = "data unreliable", [8] = "data",
              [9] = "data unsequenced", [10] = "other", [11] = "other",
              [12] = "data unreliable" },
  },
  seq = { field = "enet.reliable_seq", bits = 16, space = "enet.channel", reliable_only = true },
  unreliable_seq = {
    { field = "enet.unreliable_seq", bits = 16, group = "enet.reliable_seq", space = "enet.channel" },
    { field = "enet.unsequenced_group", bits = 16 },
  },
  reliable = "enet.cmd.acknowledge",
  unsequenced = "enet.cmd.unsequenced",
  ack = { style = "per-segment", field = "enet.ack.received_seq" },
  ts = { field = "enet.sent_time", echo = "enet.ack.received_sent_time", unit_ms = 1, bits = 16 },
  channel = "enet.channel",
  length = "enet.data_length",
}
]==]

local enet = Proto("enet", "ENet reliable UDP")

local CMD_NAMES = { [1] = "ACK", [2] = "CONNECT", [3] = "VERIFY_CONNECT", [4] = "DISCONNECT",
                    [5] = "PING", [6] = "SEND_RELIABLE", [7] = "SEND_UNRELIABLE",
                    [8] = "SEND_FRAGMENT", [9] = "SEND_UNSEQUENCED", [10] = "BANDWIDTH_LIMIT",
                    [11] = "THROTTLE_CONFIGURE", [12] = "SEND_UNRELIABLE_FRAGMENT" }
-- Fixed size of each command (header included), from enet/protocol.h.
local CMD_SIZE = { [1] = 8, [2] = 48, [3] = 44, [4] = 8, [5] = 4, [6] = 6, [7] = 8, [8] = 24,
                   [9] = 8, [10] = 12, [11] = 16, [12] = 24 }
-- Offset of dataLength inside the command, for the commands that carry data.
local DATA_LEN_AT = { [6] = 4, [7] = 6, [8] = 6, [9] = 6, [12] = 6 }
-- Flags ENet itself sets (the heuristic demands them): 0x80 ACKNOWLEDGE, 0x40 UNSEQUENCED.
local CMD_FLAGS = { [1] = 0, [2] = 0x80, [3] = 0x80, [5] = 0x80, [6] = 0x80, [7] = 0,
                    [8] = 0x80, [9] = 0x40, [10] = 0x80, [11] = 0x80, [12] = 0 }
local PEER_CMD = { [2] = true, [3] = true, [4] = true, [5] = true, [10] = true, [11] = true }

local f = {
  peer_word   = ProtoField.uint16("enet.header", "Peer id and flags", base.HEX),
  peer_id     = ProtoField.uint16("enet.peer_id", "Peer id", base.HEX, nil, 0x0FFF),
  session     = ProtoField.uint16("enet.session", "Session", base.DEC, nil, 0x3000),
  compressed  = ProtoField.bool("enet.flags.compressed", "Compressed", 16, nil, 0x4000),
  has_time    = ProtoField.bool("enet.flags.sent_time", "Sent time present", 16, nil, 0x8000),
  sent_time   = ProtoField.uint16("enet.sent_time", "Sent time (ms mod 65536)", base.DEC),
  checksum    = ProtoField.uint32("enet.checksum", "Checksum", base.HEX),
  count       = ProtoField.uint16("enet.commands", "Commands in datagram", base.DEC),
  compressed_data = ProtoField.bytes("enet.compressed_data", "Compressed commands"),
  command     = ProtoField.uint8("enet.command", "Command byte", base.HEX),
  cmd         = ProtoField.uint8("enet.cmd", "Command", base.DEC, CMD_NAMES, 0x0F),
  cmd_ack     = ProtoField.bool("enet.cmd.acknowledge", "Acknowledge requested", 8, nil, 0x80),
  cmd_unseq   = ProtoField.bool("enet.cmd.unsequenced", "Unsequenced", 8, nil, 0x40),
  channel     = ProtoField.uint8("enet.channel", "Channel", base.DEC),
  rel_seq     = ProtoField.uint16("enet.reliable_seq", "Reliable sequence number", base.DEC),
  data_seq    = ProtoField.uint16("enet.data.seq", "Reliable data sequence number", base.DEC),
  ack_seq     = ProtoField.uint16("enet.ack.received_seq", "Received reliable sequence number", base.DEC),
  ack_time    = ProtoField.uint16("enet.ack.received_sent_time", "Received sent time", base.DEC),
  ack_data    = ProtoField.uint16("enet.ack.data_seq", "Acked reliable data sequence number", base.DEC),
  out_peer    = ProtoField.uint16("enet.connect.outgoing_peer_id", "Outgoing peer id", base.HEX),
  in_session  = ProtoField.uint8("enet.connect.incoming_session", "Incoming session id", base.DEC),
  out_session = ProtoField.uint8("enet.connect.outgoing_session", "Outgoing session id", base.DEC),
  mtu         = ProtoField.uint32("enet.connect.mtu", "MTU", base.DEC),
  window      = ProtoField.uint32("enet.connect.window_size", "Window size", base.DEC),
  channels    = ProtoField.uint32("enet.connect.channel_count", "Channel count", base.DEC),
  in_bw       = ProtoField.uint32("enet.incoming_bandwidth", "Incoming bandwidth", base.DEC),
  out_bw      = ProtoField.uint32("enet.outgoing_bandwidth", "Outgoing bandwidth", base.DEC),
  thr_int     = ProtoField.uint32("enet.throttle.interval", "Packet throttle interval", base.DEC),
  thr_acc     = ProtoField.uint32("enet.throttle.acceleration", "Packet throttle acceleration", base.DEC),
  thr_dec     = ProtoField.uint32("enet.throttle.deceleration", "Packet throttle deceleration", base.DEC),
  connect_id  = ProtoField.uint32("enet.connect.connect_id", "Connect id", base.HEX),
  connect_data = ProtoField.uint32("enet.connect.data", "Connect data", base.DEC),
  disc_data   = ProtoField.uint32("enet.disconnect.data", "Disconnect data", base.DEC),
  useq        = ProtoField.uint16("enet.unreliable_seq", "Unreliable sequence number", base.DEC),
  ugroup      = ProtoField.uint16("enet.unsequenced_group", "Unsequenced group", base.DEC),
  data_len    = ProtoField.uint16("enet.data_length", "Data length", base.DEC),
  frag_start  = ProtoField.uint16("enet.fragment.start_seq", "Start sequence number", base.DEC),
  frag_count  = ProtoField.uint32("enet.fragment.count", "Fragment count", base.DEC),
  frag_number = ProtoField.uint32("enet.fragment.number", "Fragment number", base.DEC),
  frag_total  = ProtoField.uint32("enet.fragment.total_length", "Total length", base.DEC),
  frag_offset = ProtoField.uint32("enet.fragment.offset", "Fragment offset", base.DEC),
  data        = ProtoField.bytes("enet.data", "Data"),
}
enet.fields = { f.peer_word, f.peer_id, f.session, f.compressed, f.has_time, f.sent_time,
                f.checksum, f.count, f.compressed_data, f.command, f.cmd, f.cmd_ack, f.cmd_unseq,
                f.channel, f.rel_seq, f.data_seq, f.ack_seq, f.ack_time, f.ack_data, f.out_peer,
                f.in_session, f.out_session, f.mtu, f.window, f.channels, f.in_bw, f.out_bw,
                f.thr_int, f.thr_acc, f.thr_dec, f.connect_id, f.connect_data, f.disc_data,
                f.useq, f.ugroup, f.data_len, f.frag_start, f.frag_count, f.frag_number,
                f.frag_total, f.frag_offset, f.data }

local e_short = ProtoExpert.new("enet.short", "Datagram shorter than the ENet header",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_cmd = ProtoExpert.new("enet.bad_command", "Unknown ENet command (expected 1..12)",
                              expert.group.MALFORMED, expert.severity.ERROR)
local e_trunc = ProtoExpert.new("enet.truncated", "Command longer than the datagram",
                                expert.group.MALFORMED, expert.severity.ERROR)
enet.experts = { e_short, e_cmd, e_trunc }

enet.prefs.ports = Pref.range("UDP ports", "", "UDP ports always decoded as ENet", 65535)
enet.prefs.checksum = Pref.bool("Checksums", false, "The hosts enable ENet checksums (4 bytes after the header)")

local band = bit.band
local floor = math.floor

-- Walks the commands from `off`. Returns a list of { off, num, size, dlen }
-- and an error reason (nil when every command is well formed and they end
-- exactly at the end). strict: the heuristic's extra checks.
local function parse_commands(tvb, off, len, peer_id, strict)
  local cmds = {}
  while off < len do
    if len - off < 4 then return cmds, "trailing" end
    local cb = tvb(off, 1):uint()
    local num = band(cb, 0x0F)
    local size = CMD_SIZE[num]
    local c = { off = off, num = num, size = size, dlen = 0 }
    cmds[#cmds + 1] = c
    if not size then return cmds, "bad_command" end
    if len - off < size then return cmds, "truncated" end
    local dl = DATA_LEN_AT[num]
    if dl then
      c.dlen = tvb(off + dl, 2):uint()
      if len - off - size < c.dlen then return cmds, "truncated" end
    end
    if strict then
      local want = CMD_FLAGS[num]
      if want and band(cb, 0xC0) ~= want then return cmds, "flags" end
      local ch = tvb(off + 1, 1):uint()
      if PEER_CMD[num] and ch ~= 0xFF then return cmds, "channel" end
      if num == 2 and peer_id ~= 0xFFF then return cmds, "connect" end
      -- ENet puts the acked number in the ACK's own header as well.
      if num == 1 and tvb(off + 2, 2):uint() ~= tvb(off + 4, 2):uint() then return cmds, "ack" end
    end
    off = off + size + c.dlen
  end
  if #cmds == 0 then return cmds, "empty" end
  return cmds, nil
end

-- Reads the header: returns header length, peer word, or nil when too short.
local function header(tvb, len)
  if len < 2 then return nil end
  local word = tvb(0, 2):uint()
  local hl = 2
  if band(word, 0x8000) ~= 0 then hl = 4 end
  if enet.prefs.checksum then hl = hl + 4 end
  if len < hl then return nil end
  return hl, word
end

local REASONS = { trailing = "trailing bytes", bad_command = "unknown command",
                  truncated = "command longer than the datagram", empty = "no command",
                  short = "shorter than the header" }

local function dissect_commands(tvb, pinfo, t, cmds, err, prefix)
  local len = tvb:len()
  t:add(f.count, #cmds)
  local info = {}
  for i = 1, #cmds do
    local c = cmds[i]
    local o, num = c.off, c.num
    local total = (c.size or 4) + c.dlen
    if total > len - o then total = len - o end
    local st = t:add(tvb(o, total), "Command: " .. (CMD_NAMES[num] or ("CMD" .. num)))
    local r = tvb(o, 1)
    local cb = r:uint()
    st:add(f.command, r)
    local ci = st:add(f.cmd, r)
    st:add(f.cmd_ack, r)
    st:add(f.cmd_unseq, r)
    if len - o < 4 then
      st:add_proto_expert_info(e_trunc)
      break
    end
    local ch = tvb(o + 1, 1):uint()
    st:add(f.channel, tvb(o + 1, 1))
    local sr = tvb(o + 2, 2)
    local seq = sr:uint()
    st:add(f.rel_seq, sr)
    local e = (CMD_NAMES[num] or ("CMD" .. num))
    if ch ~= 0xFF then e = e .. " ch=" .. ch end
    if num ~= 9 then e = e .. " seq=" .. seq end
    if band(cb, 0x80) ~= 0 and ch ~= 0xFF and num ~= 1 then st:add(f.data_seq, sr) end
    if not c.size then
      ci:add_proto_expert_info(e_cmd)
      info[#info + 1] = e
      break
    end
    if c.size > len - o then
      st:add_proto_expert_info(e_trunc)
      info[#info + 1] = e
      break
    end
    local p = o + 4
    if num == 1 then
      local ar = tvb(p, 2)
      st:add(f.ack_seq, ar)
      if ch ~= 0xFF then st:add(f.ack_data, ar) end
      st:add(f.ack_time, tvb(p + 2, 2))
      e = e .. " ack=" .. ar:uint() .. " sent=" .. tvb(p + 2, 2):uint()
    elseif num == 2 or num == 3 then
      st:add(f.out_peer, tvb(p, 2))
      st:add(f.in_session, tvb(p + 2, 1))
      st:add(f.out_session, tvb(p + 3, 1))
      st:add(f.mtu, tvb(p + 4, 4))
      st:add(f.window, tvb(p + 8, 4))
      st:add(f.channels, tvb(p + 12, 4))
      st:add(f.in_bw, tvb(p + 16, 4))
      st:add(f.out_bw, tvb(p + 20, 4))
      st:add(f.thr_int, tvb(p + 24, 4))
      st:add(f.thr_acc, tvb(p + 28, 4))
      st:add(f.thr_dec, tvb(p + 32, 4))
      st:add(f.connect_id, tvb(p + 36, 4))
      e = e .. string.format(" id=0x%08x", tvb(p + 36, 4):uint())
      if num == 2 then st:add(f.connect_data, tvb(p + 40, 4)) end
    elseif num == 4 then
      st:add(f.disc_data, tvb(p, 4))
    elseif num == 6 then
      st:add(f.data_len, tvb(p, 2))
      e = e .. " len=" .. c.dlen
    elseif num == 7 then
      st:add(f.useq, tvb(p, 2))
      st:add(f.data_len, tvb(p + 2, 2))
      e = e .. " useq=" .. tvb(p, 2):uint() .. " len=" .. c.dlen
    elseif num == 9 then
      st:add(f.ugroup, tvb(p, 2))
      st:add(f.data_len, tvb(p + 2, 2))
      e = e .. " group=" .. tvb(p, 2):uint() .. " len=" .. c.dlen
    elseif num == 8 or num == 12 then
      st:add(f.frag_start, tvb(p, 2))
      st:add(f.data_len, tvb(p + 2, 2))
      st:add(f.frag_count, tvb(p + 4, 4))
      st:add(f.frag_number, tvb(p + 8, 4))
      st:add(f.frag_total, tvb(p + 12, 4))
      st:add(f.frag_offset, tvb(p + 16, 4))
      e = e .. " frag=" .. (tvb(p + 8, 4):uint() + 1) .. "/" .. tvb(p + 4, 4):uint()
        .. " start=" .. tvb(p, 2):uint() .. " len=" .. c.dlen
    elseif num == 10 then
      st:add(f.in_bw, tvb(p, 4))
      st:add(f.out_bw, tvb(p + 4, 4))
    elseif num == 11 then
      st:add(f.thr_int, tvb(p, 4))
      st:add(f.thr_acc, tvb(p + 4, 4))
      st:add(f.thr_dec, tvb(p + 8, 4))
    end
    local avail = len - o - c.size
    if avail > c.dlen then avail = c.dlen end
    if avail > 0 then st:add(f.data, tvb(o + c.size, avail)) end
    if c.dlen > len - o - c.size then st:add_proto_expert_info(e_trunc) end
    info[#info + 1] = e
  end
  if err then
    if err == "trailing" then t:add_proto_expert_info(e_trunc) end
    pinfo.cols.info = "ENet malformed: " .. (REASONS[err] or err)
  else
    pinfo.cols.info = prefix .. table.concat(info, " | ")
  end
end

local function dissect(tvb, pinfo, tree, hl, word, cmds, err)
  local len = tvb:len()
  pinfo.cols.protocol = "ENet"
  local t = tree:add(enet, tvb(0, len))
  local r = tvb(0, 2)
  local ht = t:add(f.peer_word, r)
  ht:add(f.peer_id, r)
  ht:add(f.session, r)
  ht:add(f.compressed, r)
  ht:add(f.has_time, r)
  local prefix = ""
  local off = 2
  if band(word, 0x8000) ~= 0 then
    t:add(f.sent_time, tvb(2, 2))
    prefix = "[sent=" .. tvb(2, 2):uint() .. "] "
    off = 4
  end
  if enet.prefs.checksum then
    t:add(f.checksum, tvb(off, 4))
    off = off + 4
  end
  if band(word, 0x4000) ~= 0 then
    if len > off then t:add(f.compressed_data, tvb(off, len - off)) end
    pinfo.cols.info = prefix .. "compressed " .. (len - off) .. " bytes"
    return len
  end
  dissect_commands(tvb, pinfo, t, cmds, err, prefix)
  return len
end

function enet.dissector(tvb, pinfo, tree)
  local len = tvb:len()
  local hl, word = header(tvb, len)
  if not hl then
    pinfo.cols.protocol = "ENet"
    local t = tree:add(enet, tvb(0, len))
    if len >= 2 then t:add(f.peer_word, tvb(0, 2)) end
    t:add_proto_expert_info(e_short)
    pinfo.cols.info = "ENet malformed: " .. REASONS.short
    return len
  end
  local cmds, err = {}, nil
  if band(word, 0x4000) == 0 then cmds, err = parse_commands(tvb, hl, len, band(word, 0x0FFF), false) end
  return dissect(tvb, pinfo, tree, hl, word, cmds, err)
end

-- The commands of a datagram that parses as ENet in full, else nil.
local function strict_parse(tvb)
  local len = tvb:len()
  local hl, word = header(tvb, len)
  if not hl or hl >= len then return nil end
  if band(word, 0x4000) ~= 0 then return nil end
  local cmds, err = parse_commands(tvb, hl, len, band(word, 0x0FFF), true)
  if err then return nil end
  -- Reliable commands always travel with a sent time.
  if band(word, 0x8000) == 0 then
    for i = 1, #cmds do
      if band(tvb(cmds[i].off, 1):uint(), 0x80) ~= 0 then return nil end
    end
  end
  return hl, word, cmds
end

-- Per address pair: datagrams the heuristic took as ENet, and the others it saw.
local tally = {}
function enet.init()
  tally = {}
end

local function pair_key(pinfo)
  local a = tostring(pinfo.src) .. ":" .. pinfo.src_port
  local b = tostring(pinfo.dst) .. ":" .. pinfo.dst_port
  if a < b then return a .. "-" .. b end
  return b .. "-" .. a
end

local function heuristic(tvb, pinfo, tree)
  local key = pair_key(pinfo)
  local t = tally[key]
  if not t then
    t = { enet = 0, other = 0 }
    tally[key] = t
  end
  local hl, word, cmds = strict_parse(tvb)
  if not hl or t.enet + 1 < t.other then
    t.other = t.other + 1
    return false
  end
  t.enet = t.enet + 1
  dissect(tvb, pinfo, tree, hl, word, cmds, nil)
  return true
end
enet:register_heuristic("udp", heuristic)

local udp_port = DissectorTable.get("udp.port")
local registered_ports = ""
function enet.prefs_changed()
  local ports = tostring(enet.prefs.ports)
  if ports ~= registered_ports then
    if registered_ports ~= "" then udp_port:remove(registered_ports, enet) end
    registered_ports = ports
    if registered_ports ~= "" then udp_port:add(registered_ports, enet) end
  end
end
