-- udt.lua: Wireshark dissector for UDT4 (UDP-based Data Transfer, the
-- udt.sourceforge.net library 4.x, draft-gg-udt-03). Field for field the
-- values of Wireshark's built-in `udt` dissector, under the name `udt4`
-- (Wireshark owns `udt`; run tshark with `--disable-protocol udt` so this
-- one decodes, `rudpscope-cli wireshark install` does that for plain
-- Wireshark), plus what the built-in one leaves out: the NAK loss list as
-- fields, the ACK kinds, delay warning, message drop request and peer error.
-- Runs unchanged in Wireshark 4.0 (Lua 5.2), Wireshark 4.4+ (Lua 5.4) and
-- rudpscope's Lua host: `bit` library, no 5.3 operators.
--
-- rudpscope.replaces: udt
--
-- Install: copy into Wireshark's personal Lua plugins folder, or
--   tshark --disable-protocol udt -X lua_script:udt.lua ...
--
-- Packet (every 32-bit word big-endian), a 16-byte header:
--   data:    0|seqno(31) | ff(2) o(1) msgno(29) | timestamp (us) | dest. socket id
--            ff: 10 first, 01 last, 11 solo, 00 middle of a message; o: in order
--   control: 1|type(15)|reserved(16) | additional info | timestamp | dest. socket id
-- Control types and their bodies (libudt 4.11, packet.cpp):
--   0 handshake: version, socket type (1 STREAM, 2 DGRAM), ISN, MSS, flow
--     window, request type (1 request, -1 response, 0 rendezvous, 1002
--     refused), socket id, SYN cookie, peer IP (16 bytes); 48 bytes
--   1 keep-alive, 4 delay warning, 5 shutdown: 4 bytes of padding
--   2 ACK: word 1 = ACK number (0 in a light ACK); body: next expected
--     sequence number [, RTT us, RTT variance us, free buffer (packets)
--     [, receive rate (packets/s), link capacity (packets/s)]]: 4 bytes (a
--     light ACK), 16 or 24
--   3 NAK: the loss list: a word `seq` is one lost packet, a word
--     `first|0x80000000` followed by `last` the range first..last
--   6 ACK2: word 1 = the ACK number it answers; 4 bytes of padding
--   7 message drop request: word 1 = the message number (with its flag
--     bits); body: first and last sequence number of the message
--   8 peer error: word 1 = the error code; 4 bytes of padding
--
-- Fields: the built-in dissector's (udt4.iscontrol, udt4.type, udt4.seqno,
-- udt4.msg.first/.last/.order, udt4.msgno, udt4.timestamp, udt4.id,
-- udt4.addinfo, udt4.ackno, udt4.ack_seqno, udt4.rtt, udt4.rttvar, udt4.buf,
-- udt4.rate, udt4.linkcap, udt4.hs.version/type/isn/mtu/flow_window/reqtype/
-- id/cookie/peerip, the expert udt4.nak_seqno), added where it adds them.
-- Our own (not in the built-in dissector):
--   udt4.ack.light      on every ACK: 1 for a light ACK (4-byte body)
--   udt4.nak.first      per loss-list entry: its first (or only) lost number
--   udt4.nak.range      per loss-list entry: 1 when it is a range
--   udt4.nak.last       per range entry only: its last lost number
--   udt4.nak.lost       per NAK: how many sequence numbers it names (generated)
--   udt4.drop.msgno     drop request: the message number (word 1, 29 bits)
--   udt4.drop.first     drop request: the message's first sequence number
--   udt4.drop.last      drop request: its last sequence number
--   udt4.error.code     peer error: the error code (word 1)
--   udt4.payload        data: the bytes after the header
--   udt4.payload.length data: their count (generated)
-- Sequence numbers are the raw ones in every field and in the Info column;
-- the built-in dissector shows them relative to the handshake's ISN in its
-- tree and Info column (its fields are raw too). The udt4.nak_seqno expert
-- texts are the built-in ones, relative when the address pair was claimed
-- by its handshake.
--
-- Registration: heuristic on UDP ("udt4_udp", on by default): a datagram
-- that is a version-4 handshake (control type 0, version 4, socket type
-- STREAM or DGRAM: the built-in heuristic's test) claims its address pair
-- (addresses and ports) for the rest of the capture; later datagrams of a
-- claimed pair are UDT4. Preference:
--   udt4.ports  UDP ports always decoded as UDT4 (range, default none: UDT
--               has no standard port), for captures without the handshake
--
-- Protocol column: "UDT".
-- Info column:
--   DATA seq=<seq> msg=<msgno> len=<payload>[ first|middle|last][ unordered]
--   HANDSHAKE req=<reqtype> isn=<isn> mss=<mss> win=<flow window> id=<socket id>[ cookie=0x...]
--   ACK <ackno> next=<seq> rtt=<us> var=<us> buf=<packets>[ rate=<pkts/s> cap=<pkts/s>]
--   ACK light next=<seq>
--   ACK2 <ackno>
--   NAK <n> lost: <first>-<last>, <seq>, ...
--   KEEPALIVE, SHUTDOWN, DELAY WARNING
--   DROP REQUEST msg=<msgno> seq=<first>-<last>
--   PEER ERROR code=<code>
--   CONTROL type=0x<type>   (another control type)
--   Malformed: as far as the datagram goes, ending in " (truncated)", with a
--   udt4.truncated expert (group Malformed): "UDT (truncated)" under 4 bytes,
--   "CONTROL type=0x0002 (truncated)" under 16, "NAK 1 lost: 7 (truncated)".

-- The analysis contract: one sequence space resent under the same numbers,
-- cumulative ACKs (udt4.ack_seqno is the next sequence number expected),
-- NAK loss lists. Only control packets have a type: data is the rest. UDT
-- 4.11's resend timer is at least 300 ms (n x 300 ms after n expiries).
--[==[ rudpscope.contract
return {
  version = 1,
  proto = "udt4",
  kind = {
    field = "udt4.type",
    roles = { [0] = "connect", [1] = "ping", [2] = "ack", [3] = "other", [4] = "other", [5] = "disconnect",
              [6] = "other", [7] = "other", [8] = "other", [0x7fff] = "other" },
    absent = "data reliable",
  },
  seq = { field = "udt4.seqno", bits = 31 },
  ack = { style = "cumulative", field = "udt4.ack_seqno" },
  nak = { first = "udt4.nak.first", last = "udt4.nak.last" },
  ts = { field = "udt4.timestamp", unit_ms = 0.001, bits = 32 },
  length = "udt4.payload.length",
  retx = { rto_min_ms = 300 },
}
]==]

local udt = Proto("udt4", "UDT 4 reliable UDP")

-- The built-in dissector's value strings; the types it leaves unnamed (4, 7,
-- 8, 0x7fff) are named here.
local ISCONTROL = { [0] = "DATA", [1] = "CONTROL" }
local TYPES = { [0] = "handshake", [1] = "keepalive", [2] = "ack", [3] = "nak", [4] = "delay warning",
                [5] = "shutdown", [6] = "ack2", [7] = "message drop request", [8] = "peer error",
                [0x7fff] = "user defined" }
local HS_TYPES = { [1] = "STREAM", [2] = "DGRAM" }

local f = {
  iscontrol = ProtoField.uint32("udt4.iscontrol", "Type", base.DEC, ISCONTROL, 0x80000000),
  type = ProtoField.uint32("udt4.type", "Type", base.HEX, TYPES, 0x7fff0000),
  seqno = ProtoField.uint32("udt4.seqno", "Sequence Number", base.DEC, nil, 0x7fffffff),
  addinfo = ProtoField.uint32("udt4.addinfo", "Additional Info", base.DEC),
  msgno = ProtoField.uint32("udt4.msgno", "Message Number", base.DEC, nil, 0x1fffffff),
  msg_first = ProtoField.uint32("udt4.msg.first", "First Indicator", base.DEC, nil, 0x80000000),
  msg_last = ProtoField.uint32("udt4.msg.last", "Last Indicator", base.DEC, nil, 0x40000000),
  msg_order = ProtoField.uint32("udt4.msg.order", "In-Order Indicator", base.DEC, nil, 0x20000000),
  timestamp = ProtoField.uint32("udt4.timestamp", "Timestamp", base.DEC),
  id = ProtoField.uint32("udt4.id", "ID", base.HEX),
  ack_seqno = ProtoField.uint32("udt4.ack_seqno", "Ack Sequence Number", base.DEC),
  ackno = ProtoField.uint32("udt4.ackno", "Ack Number", base.DEC),
  rtt = ProtoField.uint32("udt4.rtt", "RTT (microseconds)", base.DEC),
  rttvar = ProtoField.uint32("udt4.rttvar", "RTT Variance (microseconds)", base.DEC),
  buf = ProtoField.uint32("udt4.buf", "Buffer Available (packets)", base.DEC),
  rate = ProtoField.uint32("udt4.rate", "Rate (packets/second)", base.DEC),
  linkcap = ProtoField.uint32("udt4.linkcap", "Link Capacity (packets/second)", base.DEC),
  hs_version = ProtoField.uint32("udt4.hs.version", "Version", base.DEC),
  hs_type = ProtoField.uint32("udt4.hs.type", "Type", base.DEC, HS_TYPES),
  hs_isn = ProtoField.uint32("udt4.hs.isn", "Initial Sequence Number", base.DEC),
  hs_mtu = ProtoField.uint32("udt4.hs.mtu", "MTU", base.DEC),
  hs_flow_window = ProtoField.uint32("udt4.hs.flow_window", "Flow Window", base.DEC),
  hs_reqtype = ProtoField.int32("udt4.hs.reqtype", "Requested Type", base.DEC),
  hs_id = ProtoField.uint32("udt4.hs.id", "ID", base.DEC),
  hs_cookie = ProtoField.uint32("udt4.hs.cookie", "SYN Cookie", base.HEX),
  hs_peerip = ProtoField.bytes("udt4.hs.peerip", "Peer IP Address"),
  -- Ours.
  ack_light = ProtoField.bool("udt4.ack.light", "Light ACK", base.NONE),
  nak_first = ProtoField.uint32("udt4.nak.first", "First lost sequence number", base.DEC, nil, 0x7fffffff),
  nak_range = ProtoField.bool("udt4.nak.range", "Range (the next word is its last)", 32, nil, 0x80000000),
  nak_last = ProtoField.uint32("udt4.nak.last", "Last lost sequence number", base.DEC, nil, 0x7fffffff),
  nak_lost = ProtoField.uint32("udt4.nak.lost", "Lost sequence numbers named", base.DEC),
  drop_msgno = ProtoField.uint32("udt4.drop.msgno", "Dropped message number", base.DEC, nil, 0x1fffffff),
  drop_first = ProtoField.uint32("udt4.drop.first", "First sequence number of the message", base.DEC),
  drop_last = ProtoField.uint32("udt4.drop.last", "Last sequence number of the message", base.DEC),
  error_code = ProtoField.uint32("udt4.error.code", "Peer error code", base.DEC),
  payload = ProtoField.bytes("udt4.payload", "Payload"),
  payload_length = ProtoField.uint32("udt4.payload.length", "Payload length", base.DEC),
}
udt.fields = {
  f.iscontrol, f.type, f.seqno, f.addinfo, f.msgno, f.msg_first, f.msg_last, f.msg_order, f.timestamp,
  f.id, f.ack_seqno, f.ackno, f.rtt, f.rttvar, f.buf, f.rate, f.linkcap, f.hs_version, f.hs_type,
  f.hs_isn, f.hs_mtu, f.hs_flow_window, f.hs_reqtype, f.hs_id, f.hs_cookie, f.hs_peerip, f.ack_light,
  f.nak_first, f.nak_range, f.nak_last, f.nak_lost, f.drop_msgno, f.drop_first, f.drop_last,
  f.error_code, f.payload, f.payload_length,
}

local e_nak_seqno = ProtoExpert.new("udt4.nak_seqno", "Missing Sequence Number(s)",
                                    expert.group.SEQUENCE, expert.severity.NOTE)
local e_truncated = ProtoExpert.new("udt4.truncated", "UDT field past the end of the datagram",
                                    expert.group.MALFORMED, expert.severity.ERROR)
udt.experts = { e_nak_seqno, e_truncated }

udt.prefs.ports = Pref.range("UDP ports", "", "UDP ports always decoded as UDT4", 65535)

local band = bit.band
local rshift = bit.rshift

local HEADER = 16
local SEQ_SPACE = 4294967296

-- Address pairs (addresses and ports) claimed by a handshake, with the ISN
-- of that first handshake (the built-in dissector's relative numbers).
-- Packets of one address pair reach one Lua state in capture order, in
-- Wireshark and rudpscope.
local conversations = {}
function udt.init()
  conversations = {}
end

local function conversation_key(pinfo)
  local a = tostring(pinfo.src) .. ":" .. pinfo.src_port
  local b = tostring(pinfo.dst) .. ":" .. pinfo.dst_port
  if a < b then return a .. "-" .. b end
  return b .. "-" .. a
end

local function word(tvb, off)
  return tvb(off, 4):uint()
end

-- Adds the fields of `list` ({field, offset, length}) that lie inside the
-- datagram; the first that does not marks the packet malformed. Returns
-- false then.
local function add_all(tree, tvb, list)
  local len = tvb:len()
  for i = 1, #list do
    local e = list[i]
    if e[2] + e[3] > len then
      tree:add_proto_expert_info(e_truncated)
      return false
    end
    tree:add(e[1], tvb(e[2], e[3]))
  end
  return true
end

-- A sequence number as the built-in dissector's expert texts show it.
local function relative(c, seq)
  if c and c.isn then return (seq - c.isn) % SEQ_SPACE end
  return seq
end

local function dissect_data(tvb, pinfo, tree)
  local len = tvb:len()
  if not add_all(tree, tvb, { { f.seqno, 0, 4 }, { f.msg_first, 4, 4 }, { f.msg_last, 4, 4 },
                              { f.msg_order, 4, 4 }, { f.msgno, 4, 4 }, { f.timestamp, 8, 4 },
                              { f.id, 12, 4 } }) then
    pinfo.cols.info = "DATA (truncated)"
    return
  end
  local seq = band(word(tvb, 0), 0x7fffffff)
  local w1 = word(tvb, 4)
  local size = len - HEADER
  tree:add(f.payload_length, size):set_generated()
  if size > 0 then tree:add(f.payload, tvb(HEADER, size)) end
  local info = "DATA seq=" .. seq .. " msg=" .. band(w1, 0x1fffffff) .. " len=" .. size
  local ff = rshift(w1, 30)
  if ff == 2 then
    info = info .. " first"
  elseif ff == 0 then
    info = info .. " middle"
  elseif ff == 1 then
    info = info .. " last"
  end
  if band(w1, 0x20000000) == 0 then info = info .. " unordered" end
  pinfo.cols.info = info
end

local function dissect_handshake(tvb, pinfo, tree)
  local ok = add_all(tree, tvb, { { f.hs_version, 16, 4 }, { f.hs_type, 20, 4 }, { f.hs_isn, 24, 4 },
                                  { f.hs_mtu, 28, 4 }, { f.hs_flow_window, 32, 4 }, { f.hs_reqtype, 36, 4 },
                                  { f.hs_id, 40, 4 }, { f.hs_cookie, 44, 4 }, { f.hs_peerip, 48, 16 } })
  if tvb:len() < 48 then return "HANDSHAKE (truncated)" end
  local info = "HANDSHAKE req=" .. tvb(36, 4):int() .. " isn=" .. word(tvb, 24) .. " mss=" .. word(tvb, 28)
    .. " win=" .. word(tvb, 32) .. " id=" .. word(tvb, 40)
  local cookie = word(tvb, 44)
  if cookie ~= 0 then info = info .. string.format(" cookie=0x%08x", cookie) end
  if not ok then info = info .. " (truncated)" end
  return info
end

local function dissect_ack(tvb, tree)
  local len = tvb:len()
  if len < 20 then
    tree:add_proto_expert_info(e_truncated)
    return "ACK (truncated)"
  end
  local next_seq = word(tvb, 16)
  tree:add(f.ack_seqno, tvb(16, 4))
  -- As the built-in dissector: the extended fields from 32 bytes on, the
  -- rate and link capacity from 40.
  local light = len < 32
  tree:add(f.ack_light, light):set_generated()
  if light then
    if len > 20 then
      tree:add_proto_expert_info(e_truncated)
      return "ACK light next=" .. next_seq .. " (truncated)"
    end
    return "ACK light next=" .. next_seq
  end
  tree:add(f.rtt, tvb(20, 4))
  tree:add(f.rttvar, tvb(24, 4))
  tree:add(f.buf, tvb(28, 4))
  local info = "ACK " .. word(tvb, 4) .. " next=" .. next_seq .. " rtt=" .. word(tvb, 20) .. " var="
    .. word(tvb, 24) .. " buf=" .. word(tvb, 28)
  if len >= 40 then
    tree:add(f.rate, tvb(32, 4))
    tree:add(f.linkcap, tvb(36, 4))
    info = info .. " rate=" .. word(tvb, 32) .. " cap=" .. word(tvb, 36)
  end
  if len ~= 32 and len ~= 40 then
    tree:add_proto_expert_info(e_truncated)
    info = info .. " (truncated)"
  end
  return info
end

-- The loss list, as the built-in dissector walks it: word by word from 16,
-- a range word with its next; a range word without a next ends the walk.
local function dissect_nak(tvb, pinfo, tree)
  local len = tvb:len()
  local c = conversations[conversation_key(pinfo)]
  local entries = {}
  local lost = 0
  local cut = false
  local i = HEADER
  while i + 4 <= len do
    local w = word(tvb, i)
    local first = band(w, 0x7fffffff)
    if band(w, 0x80000000) ~= 0 then
      if i + 8 > len then
        cut = true
        break
      end
      local last = band(word(tvb, i + 4), 0x7fffffff)
      local entry = tree:add(tvb(i, 8), "Lost: " .. first .. "-" .. last)
      entry:add(f.nak_first, tvb(i, 4))
      entry:add(f.nak_range, tvb(i, 4))
      entry:add(f.nak_last, tvb(i + 4, 4))
      local rf, rl = relative(c, first), relative(c, last)
      if rf ~= first then
        entry:add_proto_expert_info(e_nak_seqno, "Missing Sequence Numbers: " .. rf .. "-" .. rl
          .. " (relative) [" .. first .. "-" .. last .. "]")
      else
        entry:add_proto_expert_info(e_nak_seqno, "Missing Sequence Numbers: " .. first .. "-" .. last)
      end
      entries[#entries + 1] = first .. "-" .. last
      lost = lost + (last - first) % 0x80000000 + 1
      i = i + 8
    else
      local entry = tree:add(tvb(i, 4), "Lost: " .. first)
      entry:add(f.nak_first, tvb(i, 4))
      entry:add(f.nak_range, tvb(i, 4))
      local rf = relative(c, first)
      if rf ~= first then
        entry:add_proto_expert_info(e_nak_seqno, "Missing Sequence Number : " .. rf .. " (relative) ["
          .. first .. "]")
      else
        entry:add_proto_expert_info(e_nak_seqno, "Missing Sequence Number : " .. first)
      end
      entries[#entries + 1] = tostring(first)
      lost = lost + 1
      i = i + 4
    end
  end
  if i < len and i + 4 > len then cut = true end
  tree:add(f.nak_lost, lost):set_generated()
  local info = "NAK " .. lost .. " lost"
  if #entries > 0 then info = info .. ": " .. table.concat(entries, ", ") end
  if cut then
    tree:add_proto_expert_info(e_truncated)
    info = info .. " (truncated)"
  end
  return info
end

local function dissect_drop(tvb, tree)
  tree:add(f.drop_msgno, tvb(4, 4))
  local info = "DROP REQUEST msg=" .. band(word(tvb, 4), 0x1fffffff)
  if not add_all(tree, tvb, { { f.drop_first, 16, 4 }, { f.drop_last, 20, 4 } }) then
    return info .. " (truncated)"
  end
  return info .. " seq=" .. word(tvb, 16) .. "-" .. word(tvb, 20)
end

local SIMPLE = { [1] = "KEEPALIVE", [4] = "DELAY WARNING", [5] = "SHUTDOWN" }

local function dissect_control(tvb, pinfo, tree)
  local w0 = word(tvb, 0)
  local ctype = band(rshift(w0, 16), 0x7fff)
  tree:add(f.type, tvb(0, 4))
  if tvb:len() < HEADER then
    add_all(tree, tvb, { { (ctype == 2 or ctype == 6) and f.ackno or f.addinfo, 4, 4 }, { f.timestamp, 8, 4 },
                         { f.id, 12, 4 } })
    pinfo.cols.info = string.format("CONTROL type=0x%04x (truncated)", ctype)
    return
  end
  if ctype == 2 or ctype == 6 then
    tree:add(f.ackno, tvb(4, 4))
  else
    tree:add(f.addinfo, tvb(4, 4))
  end
  tree:add(f.timestamp, tvb(8, 4))
  tree:add(f.id, tvb(12, 4))
  local info
  if ctype == 0 then
    info = dissect_handshake(tvb, pinfo, tree)
  elseif ctype == 2 then
    info = dissect_ack(tvb, tree)
  elseif ctype == 3 then
    info = dissect_nak(tvb, pinfo, tree)
  elseif ctype == 6 then
    info = "ACK2 " .. word(tvb, 4)
  elseif ctype == 7 then
    info = dissect_drop(tvb, tree)
  elseif ctype == 8 then
    tree:add(f.error_code, tvb(4, 4))
    info = "PEER ERROR code=" .. word(tvb, 4)
  elseif SIMPLE[ctype] then
    info = SIMPLE[ctype]
  else
    info = string.format("CONTROL type=0x%04x", ctype)
  end
  pinfo.cols.info = info
end

function udt.dissector(tvb, pinfo, tree)
  local len = tvb:len()
  if len == 0 then return 0 end
  pinfo.cols.protocol = "UDT"
  local t = tree:add(udt, tvb())
  if len < 4 then
    t:add_proto_expert_info(e_truncated)
    pinfo.cols.info = "UDT (truncated)"
    return len
  end
  t:add(f.iscontrol, tvb(0, 4))
  if band(word(tvb, 0), 0x80000000) ~= 0 then
    dissect_control(tvb, pinfo, t)
  else
    dissect_data(tvb, pinfo, t)
  end
  return len
end

-- Heuristic: the built-in one's test of a version-4 handshake (control type
-- 0, version 4, socket type STREAM or DGRAM) claims the address pair, with
-- the handshake's ISN; every later datagram of a claimed pair is UDT4.
local function is_handshake(tvb)
  return tvb:len() >= 24 and word(tvb, 0) == 0x80000000 and word(tvb, 16) == 4
    and (word(tvb, 20) == 1 or word(tvb, 20) == 2)
end

local function heuristic(tvb, pinfo, tree)
  local key = conversation_key(pinfo)
  if conversations[key] == nil then
    if not is_handshake(tvb) then return false end
    conversations[key] = { isn = tvb:len() >= 28 and word(tvb, 24) or nil }
  end
  udt.dissector(tvb, pinfo, tree)
  return true
end
udt:register_heuristic("udp", heuristic)

local udp_port = DissectorTable.get("udp.port")
local registered_ports = ""
function udt.prefs_changed()
  local ports = tostring(udt.prefs.ports)
  if ports ~= registered_ports then
    if registered_ports ~= "" then udp_port:remove(registered_ports, udt) end
    registered_ports = ports
    if registered_ports ~= "" then udp_port:add(registered_ports, udt) end
  end
end
