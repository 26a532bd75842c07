-- RakNet 4 (the reliable-UDP library of Minecraft Bedrock and many games):
-- offline handshake messages, datagrams with their 24-bit numbers, ACK and
-- NAK records, and every encapsulated message (reliability, reliable message
-- number, sequencing and ordering indices, channel, split info) with the
-- connected system messages. Field for field the values of Wireshark's
-- built-in `raknet` dissector, under the name `raknet4` (Wireshark owns
-- `raknet`; run tshark with `--disable-protocol raknet` so this one decodes,
-- `rudpscope-cli wireshark install` does that for plain Wireshark).
-- Split messages are shown fragment by fragment, not reassembled.
--
-- rudpscope.replaces: raknet
--
-- Byte order: the datagram number, ranges and message indices are
-- little-endian 24-bit; lengths, split fields, ports and times big-endian.


--[==[ rudpscope.contract
return {
  version = 2,
  proto = "raknet4",
  packet = { number = "raknet4.packet_number", bits = 24 },
  acks = { style = "ranges", first = "raknet4.range.packet_number.min",
           last = "raknet4.range.packet_number.max", nak = "raknet4.packet.is_NAK" },
  message = {
    segment = "raknet4.message",
    id = { field = "raknet4.reliable.number", bits = 24 },
    class = { field = "raknet4.message.reliability",
              values = { [0] = "unreliable", [1] = "unreliable sequenced", [2] = "reliable",
                         [3] = "reliable ordered", [4] = "reliable sequenced" } },
    order = { index = "raknet4.ordering.index", channel = "raknet4.ordering.channel", bits = 24 },
    split = { id = "raknet4.split.id", index = "raknet4.split.index", count = "raknet4.split.count" },
    length = { field = "raknet4.payload.length", unit = "bits" },
  },
}
]==]

local raknet = Proto("raknet4", "RakNet 4 reliable UDP")

local OFFLINE_NAMES = {
  [0x01] = "Unconnected Ping", [0x02] = "Unconnected Ping Open Connections",
  [0x05] = "Open Connection Request 1", [0x06] = "Open Connection Reply 1",
  [0x07] = "Open Connection Request 2", [0x08] = "Open Connection Reply 2",
  [0x0D] = "Out Of Band Internal", [0x11] = "Connection Attempt Failed",
  [0x12] = "Already Connected", [0x14] = "No Free Incoming Connections",
  [0x17] = "Connection Banned", [0x19] = "Incompatible Protocol Version",
  [0x1A] = "IP Recently Connected", [0x1C] = "Unconnected Pong",
}
local SYSTEM_NAMES = {
  [0x00] = "Connected Ping", [0x03] = "Connected Pong", [0x09] = "Connection Request",
  [0x10] = "Connection Request Accepted", [0x13] = "New Incoming Connection",
}
local RELIABILITY = {
  [0] = "unreliable", [1] = "unreliable sequenced", [2] = "reliable",
  [3] = "reliable ordered", [4] = "reliable sequenced",
}
-- The 16 bytes every offline message carries ("OFFLINE_MESSAGE_DATA_ID").
local MAGIC = "\0\255\255\0\254\254\254\254\253\253\253\253\18\52\86\120"
local INTERNAL_IDS = 10

local f = {
  offline_id = ProtoField.uint8("raknet4.offline.message.id", "RakNet Offline Message ID", base.HEX, OFFLINE_NAMES),
  client_guid = ProtoField.bytes("raknet4.client.guid", "RakNet Client GUID"),
  timestamp = ProtoField.uint64("raknet4.timestamp", "RakNet Time since start (ms)", base.DEC),
  data_id = ProtoField.bytes("raknet4.offline_message.data_id", "RakNet Offline message data ID"),
  mtu = ProtoField.uint16("raknet4.MTU", "RakNet MTU size", base.DEC),
  proto_ver = ProtoField.uint8("raknet4.proto_ver", "RakNet RakNet protocol version", base.DEC),
  server_id = ProtoField.bytes("raknet4.server_id", "RakNet Server GUID"),
  ip_version = ProtoField.uint8("raknet4.ip.version", "RakNet IP Version", base.DEC),
  ipv4 = ProtoField.ipv4("raknet4.ip.v4_address", "RakNet IPv4 Address"),
  ipv6 = ProtoField.bytes("raknet4.ip.v6_address", "RakNet IPv6 Address"),
  port = ProtoField.uint16("raknet4.port", "RakNet Port", base.DEC),
  null_padding = ProtoField.none("raknet4.null_padding", "RakNet Null padding"),
  use_encryption = ProtoField.bool("raknet4.use_encryption", "RakNet Use encryption"),
  public_key = ProtoField.bytes("raknet4.server.public_key", "RakNet Server public key"),
  cookie = ProtoField.uint32("raknet4.cookie", "RakNet cookie", base.HEX),
  wrote_challenge = ProtoField.bool("raknet4.client.wrote_challenge", "RakNet Client wrote challenge"),
  challenge = ProtoField.bytes("raknet4.client.challenge", "RakNet Client challenge"),
  client_address = ProtoField.string("raknet4.client.address", "RakNet Client address"),
  server_address = ProtoField.string("raknet4.server.address", "RakNet Server address"),
  answer = ProtoField.bytes("raknet4.server.answer", "RakNet Server answer"),
  server_id_len = ProtoField.uint16("raknet4.server_id_str_len", "RakNet Server ID string len", base.DEC),
  server_id_str = ProtoField.string("raknet4.server_id_str", "RakNet Server ID string"),
  packet_type = ProtoField.uint8("raknet4.packet.type", "RakNet Packet type", base.HEX),
  is_connected = ProtoField.bool("raknet4.packet.is_for_connected", "is for connected peer", 8, nil, 0x80),
  is_ack = ProtoField.bool("raknet4.packet.is_ACK", "is ACK", 8, nil, 0x40),
  has_b_as = ProtoField.bool("raknet4.packet.has_B_and_AS", "has B and AS", 8, nil, 0x20),
  is_nak = ProtoField.bool("raknet4.packet.is_NAK", "is NAK", 8, nil, 0x20),
  is_pair = ProtoField.bool("raknet4.packet.is_pair", "is pair", 8, nil, 0x10),
  is_continuous = ProtoField.bool("raknet4.packet.is_continuous_send", "is continuous send", 8, nil, 0x08),
  needs_b_as = ProtoField.bool("raknet4.packet.needs_B_and_AS", "needs B and AS", 8, nil, 0x04),
  arrival_rate = ProtoField.float("raknet4.AS", "RakNet Data arrival rate"),
  record_count = ProtoField.uint16("raknet4.NACK.record_count", "RakNet ACK/NAK record count", base.DEC),
  range = ProtoField.string("raknet4.range.packet_number", "RakNet Packet sequence number range"),
  max_is_min = ProtoField.bool("raknet4.range.max_equals_to_min", "RakNet Range max equals to min"),
  range_min = ProtoField.uint24("raknet4.range.packet_number.min", "RakNet Packet sequence number min", base.DEC),
  range_max = ProtoField.uint24("raknet4.range.packet_number.max", "RakNet Packet sequence number max", base.DEC),
  packet_number = ProtoField.uint24("raknet4.packet_number", "RakNet Packet sequence number", base.DEC),
  message = ProtoField.none("raknet4.message", "RakNet Message"),
  message_flags = ProtoField.uint8("raknet4.message.flags", "RakNet Message flags", base.HEX),
  reliability = ProtoField.uint8("raknet4.message.reliability", "reliability", base.DEC, RELIABILITY, 0xE0),
  has_split = ProtoField.bool("raknet4.message.has_split_packet", "has split packet", 8, nil, 0x10),
  payload_length = ProtoField.uint16("raknet4.payload.length", "RakNet Payload length", base.DEC),
  reliable_number = ProtoField.uint24("raknet4.reliable.number", "RakNet Reliable message number", base.DEC),
  sequencing_index = ProtoField.uint24("raknet4.sequencing.index", "RakNet Message sequencing index", base.DEC),
  ordering_index = ProtoField.uint24("raknet4.ordering.index", "RakNet Message ordering index", base.DEC),
  ordering_channel = ProtoField.uint8("raknet4.ordering.channel", "RakNet Message ordering channel", base.DEC),
  split_count = ProtoField.uint32("raknet4.split.count", "RakNet Split packet count", base.DEC),
  split_id = ProtoField.uint16("raknet4.split.id", "RakNet Split packet ID", base.DEC),
  split_index = ProtoField.uint32("raknet4.split.index", "RakNet Split packet index", base.DEC),
  split_packet = ProtoField.none("raknet4.split.packet", "RakNet Split packet"),
  system_message = ProtoField.none("raknet4.system.message", "RakNet System message"),
  system_id = ProtoField.uint8("raknet4.system.message.id", "RakNet System Message ID", base.HEX, SYSTEM_NAMES),
  client_proof = ProtoField.bytes("raknet4.client.proof", "RakNet Client proof of key"),
  use_client_key = ProtoField.bool("raknet4.use_client_key", "RakNet Use client key"),
  client_identity = ProtoField.bytes("raknet4.client.identity", "RakNet Client identity"),
  password = ProtoField.bytes("raknet4.password", "RakNet Password"),
  system_index = ProtoField.uint16("raknet4.system.index", "RakNet System index", base.DEC),
  internal_address = ProtoField.string("raknet4.internal.address", "RakNet Internal address"),
}
raknet.fields = {
  f.offline_id, f.client_guid, f.timestamp, f.data_id, f.mtu, f.proto_ver, f.server_id, f.ip_version,
  f.ipv4, f.ipv6, f.port, f.null_padding, f.use_encryption, f.public_key, f.cookie, f.wrote_challenge,
  f.challenge, f.client_address, f.server_address, f.answer, f.server_id_len, f.server_id_str,
  f.packet_type, f.is_connected, f.is_ack, f.has_b_as, f.is_nak, f.is_pair, f.is_continuous,
  f.needs_b_as, f.arrival_rate, f.record_count, f.range, f.max_is_min, f.range_min, f.range_max,
  f.packet_number, f.message, f.message_flags, f.reliability, f.has_split, f.payload_length,
  f.reliable_number, f.sequencing_index, f.ordering_index, f.ordering_channel, f.split_count,
  f.split_id, f.split_index, f.split_packet, f.system_message, f.system_id, f.client_proof,
  f.use_client_key, f.client_identity, f.password, f.system_index, f.internal_address,
}

local e_truncated = ProtoExpert.new("raknet4.truncated", "RakNet field past the end of the datagram",
                                    expert.group.MALFORMED, expert.severity.ERROR)
local e_unknown = ProtoExpert.new("raknet4.unknown.id", "RakNet unknown message ID",
                                  expert.group.UNDECODED, expert.severity.WARN)
local e_encrypted = ProtoExpert.new("raknet4.encrypted", "RakNet encrypted message",
                                    expert.group.UNDECODED, expert.severity.WARN)
raknet.experts = { e_truncated, e_unknown, e_encrypted }

raknet.prefs.ports = Pref.range("UDP ports", "", "UDP ports always decoded as RakNet", 65535)

local band = bit.band
local floor = math.floor

-- Conversations (address/port pairs) that began with RakNet's offline
-- handshake, and whether their server turned encryption on. Packets of one
-- conversation reach one Lua state in order, in Wireshark and rudpscope.
local conversations = {}
function raknet.init()
  conversations = {}
end

local function conversation_key(pinfo)
  local a = tostring(pinfo.src) .. ":" .. pinfo.src_port
  local b = tostring(pinfo.dst) .. ":" .. pinfo.dst_port
  if a < b then return a .. "-" .. b end
  return b .. "-" .. a
end

local function conversation(pinfo)
  local key = conversation_key(pinfo)
  local c = conversations[key]
  if not c then
    c = { use_encryption = false }
    conversations[key] = c
  end
  return c
end

-- A cursor over the datagram: each read checks the length first and marks
-- the packet malformed instead of raising.
local Reader = {}
Reader.__index = Reader

local function reader(tvb, off, stop)
  return setmetatable({ tvb = tvb, off = off, stop = stop, bad = false }, Reader)
end

function Reader:has(n)
  return not self.bad and self.off + n <= self.stop
end

function Reader:take(n, tree)
  if not self:has(n) then
    if not self.bad then
      self.bad = true
      tree:add_proto_expert_info(e_truncated)
    end
    return nil
  end
  local r = self.tvb(self.off, n)
  self.off = self.off + n
  return r
end

function Reader:add(tree, field, n)
  local r = self:take(n, tree)
  if r then tree:add(field, r) end
  return r
end

function Reader:add_le(tree, field, n)
  local r = self:take(n, tree)
  if r then tree:add_le(field, r) end
  return r
end

-- RakNet's system address: version 4 with the address bit-inverted (so
-- routers leave it alone), or 6; the value shown is "address:port".
local function add_system_address(rd, tree, field, label)
  local v = rd:take(1, tree)
  if not v then return end
  local version = v:uint()
  local size = (version == 4 and 6) or (version == 6 and 18) or nil
  if not size or not rd:has(size) then
    rd.off = rd.off - 1
    rd:take(rd.stop - rd.off + 1, tree)
    return
  end
  local body = rd:take(size, tree)
  local text
  local item
  if version == 4 then
    local addr = bit.bnot(body(0, 4):uint())
    local dotted = string.format("%d.%d.%d.%d", band(bit.rshift(addr, 24), 255),
                                 band(bit.rshift(addr, 16), 255), band(bit.rshift(addr, 8), 255), band(addr, 255))
    text = dotted .. ":" .. body(4, 2):uint()
    item = tree:add(field, rd.tvb(v:offset(), 7), "", label .. ": " .. text)
    item:add(f.ip_version, v)
    item:add(f.ipv4, body(0, 4), Address.ip(dotted))
    item:add(f.port, body(4, 2))
  else
    item = tree:add(field, rd.tvb(v:offset(), 19), "", label)
    item:add(f.ip_version, v)
    item:add(f.ipv6, body(0, 16))
    item:add(f.port, body(16, 2))
  end
end

local OFFLINE = {}
OFFLINE[0x01] = function(rd, tree)
  rd:add(tree, f.timestamp, 8)
  rd:add(tree, f.data_id, 16)
  rd:add(tree, f.client_guid, 8)
end
OFFLINE[0x02] = OFFLINE[0x01]
OFFLINE[0x05] = function(rd, tree)
  rd:add(tree, f.data_id, 16)
  rd:add(tree, f.proto_ver, 1)
  if rd:has(0) and not rd.bad then tree:add(f.null_padding, rd.tvb(rd.off, rd.stop - rd.off)) end
end
OFFLINE[0x06] = function(rd, tree, pinfo)
  rd:add(tree, f.data_id, 16)
  rd:add(tree, f.server_id, 8)
  local enc = rd:add(tree, f.use_encryption, 1)
  local use = enc ~= nil and enc:uint() ~= 0
  conversation(pinfo).use_encryption = use
  if use then
    rd:add(tree, f.cookie, 4)
    rd:add(tree, f.public_key, 64)
  end
  rd:add(tree, f.mtu, 2)
end
OFFLINE[0x07] = function(rd, tree, pinfo)
  rd:add(tree, f.data_id, 16)
  if conversation(pinfo).use_encryption then
    rd:add(tree, f.cookie, 4)
    local wrote = rd:add(tree, f.wrote_challenge, 1)
    if wrote and wrote:uint() ~= 0 then rd:add(tree, f.challenge, 64) end
  end
  add_system_address(rd, tree, f.server_address, "RakNet Server address")
  rd:add(tree, f.mtu, 2)
  rd:add(tree, f.client_guid, 8)
end
OFFLINE[0x08] = function(rd, tree)
  rd:add(tree, f.data_id, 16)
  rd:add(tree, f.server_id, 8)
  add_system_address(rd, tree, f.client_address, "RakNet Client address")
  rd:add(tree, f.mtu, 2)
  local enc = rd:add(tree, f.use_encryption, 1)
  if enc and enc:uint() ~= 0 then rd:add(tree, f.answer, 128) end
end
local function connection_failed(rd, tree)
  rd:add(tree, f.data_id, 16)
  rd:add(tree, f.server_id, 8)
end
for _, id in ipairs({ 0x0D, 0x11, 0x12, 0x14, 0x17, 0x1A }) do OFFLINE[id] = connection_failed end
OFFLINE[0x19] = function(rd, tree)
  rd:add(tree, f.proto_ver, 1)
  rd:add(tree, f.data_id, 16)
  rd:add(tree, f.server_id, 8)
end
OFFLINE[0x1C] = function(rd, tree)
  rd:add(tree, f.timestamp, 8)
  rd:add(tree, f.server_id, 8)
  rd:add(tree, f.data_id, 16)
  local len = rd:add(tree, f.server_id_len, 2)
  if len then rd:add(tree, f.server_id_str, len:uint()) end
end

local SYSTEM = {}
SYSTEM[0x00] = function(rd, tree) rd:add(tree, f.timestamp, 8) end
SYSTEM[0x03] = function(rd, tree)
  rd:add(tree, f.timestamp, 8)
  rd:add(tree, f.timestamp, 8)
end
SYSTEM[0x09] = function(rd, tree)
  rd:add(tree, f.client_guid, 8)
  rd:add(tree, f.timestamp, 8)
  local enc = rd:add(tree, f.use_encryption, 1)
  if enc and enc:uint() ~= 0 then
    rd:add(tree, f.client_proof, 32)
    local key = rd:add(tree, f.use_client_key, 1)
    if key and key:uint() ~= 0 then rd:add(tree, f.client_identity, 160) end
  end
  -- An empty password is left out: Lua prints an empty bytes field as
  -- "<MISSING>" where the built-in dissector prints nothing.
  if not rd.bad and rd.off < rd.stop then tree:add(f.password, rd.tvb(rd.off, rd.stop - rd.off)) end
end
local function internal_addresses_and_times(rd, tree)
  for _ = 1, INTERNAL_IDS do add_system_address(rd, tree, f.internal_address, "RakNet Internal address") end
  rd:add(tree, f.timestamp, 8)
  rd:add(tree, f.timestamp, 8)
end
SYSTEM[0x10] = function(rd, tree)
  add_system_address(rd, tree, f.client_address, "RakNet Client address")
  rd:add(tree, f.system_index, 2)
  internal_addresses_and_times(rd, tree)
end
SYSTEM[0x13] = function(rd, tree)
  add_system_address(rd, tree, f.server_address, "RakNet Server address")
  internal_addresses_and_times(rd, tree)
end

local function is_offline(tvb)
  return tvb:len() >= 1 and OFFLINE[tvb(0, 1):uint()] ~= nil
end

local function dissect_offline(tvb, pinfo, tree)
  local id = tvb(0, 1):uint()
  local sub = tree:add(raknet, tvb(), string.format("RakNet, Offline message ID %#x", id))
  sub:add(f.offline_id, tvb(0, 1))
  pinfo.cols.info = OFFLINE_NAMES[id]
  local rd = reader(tvb, 1, tvb:len())
  OFFLINE[id](rd, sub, pinfo)
end

local function dissect_ranges(rd, tree, info)
  local count = rd:add(tree, f.record_count, 2)
  if not count then return end
  for i = 1, count:uint() do
    local flag = rd:take(1, tree)
    if not flag then return end
    local single = flag:uint() ~= 0
    local lo = rd:take(3, tree)
    local hi = single and lo or rd:take(3, tree)
    if not lo or not hi then return end
    local a, b = lo:le_uint(), hi:le_uint()
    info[#info + 1] = single and ("#" .. a) or ("#" .. a .. ".." .. b)
    local item = tree:add(f.range, rd.tvb(flag:offset(), single and 4 or 7), "",
                          "RakNet Packet sequence number range: " .. a .. " .. " .. b)
    item:add(f.max_is_min, flag)
    item:add_le(f.range_min, lo)
    if not single then item:add_le(f.range_max, hi) end
  end
end

local function dissect_ack(tvb, pinfo, tree, is_ack)
  local t = tvb(0, 1)
  local sub = tree:add(raknet, tvb(), is_ack and "RakNet, ACK" or "RakNet, NAK")
  local ti = sub:add(f.packet_type, t)
  ti:add(f.is_connected, t)
  ti:add(f.is_ack, t)
  local rd = reader(tvb, 1, tvb:len())
  if is_ack then
    ti:add(f.has_b_as, t)
    if band(t:uint(), 0x20) ~= 0 then rd:add(sub, f.arrival_rate, 4) end
  else
    ti:add(f.is_nak, t)
  end
  local info = {}
  dissect_ranges(rd, sub, info)
  pinfo.cols.info = (is_ack and "ACK " or "NAK ") .. table.concat(info, ", ")
end

-- One encapsulated message at rd.off; returns its Info text.
local function dissect_message(rd, tree)
  local start = rd.off
  local msg = tree:add(f.message, rd.tvb(start, rd.stop - start))
  local flags = rd:take(1, msg)
  if not flags then return "" end
  local fi = msg:add(f.message_flags, flags)
  fi:add(f.reliability, flags)
  fi:add(f.has_split, flags)
  local rel = bit.rshift(flags:uint(), 5)
  local split = band(flags:uint(), 0x10) ~= 0
  local bits = rd:add(msg, f.payload_length, 2)
  if not bits then return "" end
  local octets = floor((bits:uint() + 7) / 8)
  if rel == 2 or rel == 3 or rel == 4 then rd:add_le(msg, f.reliable_number, 3) end
  if rel == 1 or rel == 4 then rd:add_le(msg, f.sequencing_index, 3) end
  if rel == 1 or rel == 3 or rel == 4 then
    rd:add_le(msg, f.ordering_index, 3)
    rd:add(msg, f.ordering_channel, 1)
  end
  local count, index
  if split then
    count = rd:add(msg, f.split_count, 4)
    rd:add(msg, f.split_id, 2)
    index = rd:add(msg, f.split_index, 4)
  end
  local body = rd:take(octets, msg)
  if not body then return "" end
  msg:set_len(rd.off - start)
  if split then
    if count and index then
      msg:add(f.split_packet, body)
      return string.format("{Message fragment %d/%d}", index:uint() + 1, count:uint())
    end
    return ""
  end
  local id = body(0, 1):uint()
  local handler = SYSTEM[id]
  if handler then
    local sys = msg:add(f.system_message, body)
    sys:add(f.system_id, body(0, 1))
    handler(reader(rd.tvb, body:offset() + 1, body:offset() + octets), sys)
    return SYSTEM_NAMES[id]
  end
  msg:add_proto_expert_info(e_unknown)
  return string.format("Unknown message ID: %#x", id)
end

local function dissect_datagram(tvb, pinfo, tree)
  local t = tvb(0, 1)
  local sub = tree:add(raknet, tvb())
  local ti = sub:add(f.packet_type, t)
  for _, fl in ipairs({ f.is_connected, f.is_ack, f.is_nak, f.is_pair, f.is_continuous, f.needs_b_as }) do
    ti:add(fl, t)
  end
  local rd = reader(tvb, 1, tvb:len())
  local number = rd:add_le(sub, f.packet_number, 3)
  if not number then return end
  local info = {}
  while rd:has(1) do
    info[#info + 1] = dissect_message(rd, sub)
  end
  pinfo.cols.info = "#" .. number:le_uint() .. ": " .. table.concat(info, ", ")
end

local function dissect_connected(tvb, pinfo, tree)
  local t = tvb(0, 1):uint()
  local c = conversations[conversation_key(pinfo)]
  if c and c.use_encryption then
    tree:add(raknet, tvb()):add_proto_expert_info(e_encrypted)
    pinfo.cols.info = "Encrypted message"
  elseif band(t, 0x80) == 0 then
    tree:add(raknet, tvb()):add_proto_expert_info(e_unknown)
    pinfo.cols.info = string.format("Unknown offline message ID: %#x", t)
  elseif band(t, 0x40) ~= 0 then
    dissect_ack(tvb, pinfo, tree, true)
  elseif band(t, 0x20) ~= 0 then
    dissect_ack(tvb, pinfo, tree, false)
  else
    dissect_datagram(tvb, pinfo, tree)
  end
end

function raknet.dissector(tvb, pinfo, tree)
  if tvb:len() == 0 then return 0 end
  pinfo.cols.protocol = "RakNet"
  if is_offline(tvb) then
    dissect_offline(tvb, pinfo, tree)
  else
    dissect_connected(tvb, pinfo, tree)
  end
  return tvb:len()
end

-- Heuristic: RakNet's offline handshake carries a 16-byte magic at a fixed
-- place; a conversation that began with it is RakNet until the capture
-- ends. A connection already open when the capture began is claimed only
-- datagram by datagram where the whole datagram parses (records or
-- messages ending exactly at its end).
local MAGIC_AT = { [0x01] = 9, [0x02] = 9, [0x05] = 1, [0x06] = 1, [0x07] = 1, [0x08] = 1, [0x1C] = 17 }

local function has_magic(tvb)
  local at = MAGIC_AT[tvb(0, 1):uint()]
  return at ~= nil and tvb:len() >= at + 16 and tvb(at, 16):raw() == MAGIC
end

local function ranges_fill(tvb, off)
  local len = tvb:len()
  if off + 2 > len then return false end
  local count = tvb(off, 2):uint()
  off = off + 2
  if count == 0 then return false end
  for _ = 1, count do
    if off + 4 > len then return false end
    local single = tvb(off, 1):uint()
    if single > 1 then return false end
    if single == 1 then
      off = off + 4
    else
      if off + 7 > len or tvb(off + 1, 3):le_uint() > tvb(off + 4, 3):le_uint() then return false end
      off = off + 7
    end
  end
  return off == len
end

local function messages_fill(tvb, off)
  local len = tvb:len()
  if off >= len then return false end
  while off < len do
    if off + 3 > len then return false end
    local flags = tvb(off, 1):uint()
    local rel = bit.rshift(flags, 5)
    if rel > 4 or band(flags, 0x0F) ~= 0 then return false end
    local bits = tvb(off + 1, 2):uint()
    if bits == 0 then return false end
    off = off + 3
    if rel == 2 or rel == 3 or rel == 4 then off = off + 3 end
    if rel == 1 or rel == 4 then off = off + 3 end
    if rel == 1 or rel == 3 or rel == 4 then off = off + 4 end
    if band(flags, 0x10) ~= 0 then
      if off + 10 > len then return false end
      local count, index = tvb(off, 4):uint(), tvb(off + 6, 4):uint()
      if count < 2 or index >= count then return false end
      off = off + 10
    end
    off = off + floor((bits + 7) / 8)
  end
  return off == len
end

local function parses_whole(tvb)
  local t = tvb(0, 1):uint()
  if t == 0xC0 then return ranges_fill(tvb, 1) end
  if t == 0xE0 then return ranges_fill(tvb, 5) end
  if t == 0xA0 then return ranges_fill(tvb, 1) end
  -- A datagram: valid, neither ACK nor NAK, the two padding bits clear.
  if band(t, 0xE3) ~= 0x80 or tvb:len() < 4 then return false end
  return messages_fill(tvb, 4)
end

local function heuristic(tvb, pinfo, tree)
  if tvb:len() < 1 then return false end
  local key = conversation_key(pinfo)
  if conversations[key] == nil then
    if has_magic(tvb) then
      conversation(pinfo)
    elseif not parses_whole(tvb) then
      return false
    end
  end
  raknet.dissector(tvb, pinfo, tree)
  return true
end
raknet:register_heuristic("udp", heuristic)

local udp_port = DissectorTable.get("udp.port")
local registered_ports = ""
function raknet.prefs_changed()
  local ports = tostring(raknet.prefs.ports)
  if ports ~= registered_ports then
    if registered_ports ~= "" then udp_port:remove(registered_ports, raknet) end
    registered_ports = ports
    if registered_ports ~= "" then udp_port:add(registered_ports, raknet) end
  end
end
