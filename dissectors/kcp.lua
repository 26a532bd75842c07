-- kcp.lua: Wireshark dissector for KCP (skywind3000/kcp, ikcp.c) and the
-- framings kcp-go (xtaci/kcp-go v5, behind kcptun) puts around it. Runs
-- unchanged in Wireshark 4.0 (Lua 5.2), Wireshark 4.4+ (Lua 5.4) and
-- rudpscope's Lua host: `bit` library, no 5.3 operators, math.floor offsets.
--
-- Install: copy into Wireshark's personal Lua plugins folder, or
--   tshark -X lua_script:kcp.lua ...
--
-- KCP segment (ikcp_encode_seg, little-endian, 24 bytes + data):
--   conv u32 | cmd u8 (81 PUSH, 82 ACK, 83 WASK, 84 WINS) | frg u8 | wnd u16 |
--   ts u32 | sn u32 | una u32 | len u32 | data[len]
-- Several segments are packed into one datagram; all are decoded. An ACK's
-- ts and sn are those of the PUSH it acknowledges: they are shown as
-- kcp.ack.ts / kcp.ack.sn (not kcp.ts / kcp.sn, which are the sender's clock
-- and the PUSH's own number). WASK/WINS carry no meaningful ts/sn
-- (kcp.probe.ts / kcp.probe.sn).
--
-- Framings (kcp.framing says which one was found, per datagram):
--   plain     KCP segments only (kcp-go with no block cipher and no FEC)
--   crc       16-byte nonce + CRC32-IEEE (LE) of the rest, then KCP (kcp-go
--             with a block cipher of "none"; kcptun --crypt none). The CRC is
--             verified (kcp.crc.good).
--   fec       FEC header: seqid u32, type u16 (0x00f1 data, 0x00f2 parity);
--             data shards then carry size u16 (= 2 + KCP bytes) and KCP,
--             parity shards Reed-Solomon bytes (kcp.fec.parity, no KCP).
--   crc+fec   nonce + CRC32, then the FEC header.
-- (Any real cipher leaves nothing to decode: such datagrams are not claimed.)
--
-- Registration: heuristic on UDP ("kcp_udp", on by default) that claims a
-- datagram only when one framing parses completely: every segment's cmd in
-- 81..84, one conv for all segments, WASK/WINS/ACK with frg = 0 and len = 0,
-- the segments ending exactly at the end of the datagram (data shard: at
-- 6 + size), or a verified CRC32. FEC parity shards without a CRC carry
-- nothing checkable: they are claimed only on a conversation (address/port
-- pair) already seen with FEC data shards. Preferences:
--   kcp.ports    UDP ports always decoded as KCP (range, default none: kcp-go
--                programs choose their ports; kcptun's usual 29900 can be set
--                with -o kcp.ports:29900)
--   kcp.framing  auto (default), plain, crc, fec or crc+fec
--
-- Protocol column: "KCP".
-- Info column: one entry per segment, joined by " | ":
--   PUSH sn=<sn> una=<una> len=<len>[ frg=<frg>]
--   ACK sn=<acked sn> una=<una>
--   WASK una=<una> wnd=<wnd> / WINS una=<una> wnd=<wnd>
--   prefixed "[crc] ", "[fec <seqid>] " or "[crc+fec <seqid>] " when framed;
--   a parity shard: "[fec <seqid>] parity <n> bytes" (or "[crc+fec ...]").
--   e.g. "PUSH sn=42 una=40 len=40 | ACK sn=17 una=40"
--   Malformed: "KCP malformed: <reason>" (expert info, group Malformed).

--[==[ rudpscope.contract
return {
  version = 1,
  proto = "kcp",
  segment = "kcp.conv",
  conn_id = "kcp.conv",
  kind = {
    field = "kcp.cmd",
    roles = { [81] = "data reliable", [82] = "ack", [83] = "other", [84] = "other" },
  },
  seq = { field = "kcp.sn", bits = 32 },
  ack = { style = "per-segment", field = "kcp.ack.sn", una = "kcp.una" },
  ts = { field = "kcp.ts", echo = "kcp.ack.ts", unit_ms = 1, bits = 32 },
  length = "kcp.len",
  window = "kcp.wnd",
  -- ikcp: RTO at least IKCP_RTO_MIN (100 ms; 30 with nodelay), fast and
  -- early retransmits reset fastack (again and again) and leave on the next
  -- flush (ikcp_update's interval, 10..100 ms); `resend` acks (2 in kcptun's
  -- profiles) make a fast retransmit, fewer an early one, which kcp-go sends
  -- only in a flush without new data.
  retx = { rto_min_ms = 100, fast_repeat = true, fast_deferred = true, fast_acks = 2 },
}
]==]

local kcp = Proto("kcp", "KCP reliable UDP")

local SEG_HDR = 24
local CRYPT_HDR = 20       -- nonce 16 + crc32 4
local FEC_HDR = 6          -- seqid 4 + type 2
local FEC_DATA, FEC_PARITY = 0xf1, 0xf2
local CMD_PUSH, CMD_ACK, CMD_WASK, CMD_WINS = 81, 82, 83, 84
local CMD_NAMES = { [81] = "PUSH", [82] = "ACK", [83] = "WASK", [84] = "WINS" }
local FEC_TYPES = { [0xf1] = "data shard", [0xf2] = "parity shard" }
local FRAMINGS = { "plain", "crc", "fec", "crc+fec" }

local f = {
  framing   = ProtoField.string("kcp.framing", "Framing"),
  nonce     = ProtoField.bytes("kcp.nonce", "Nonce"),
  crc       = ProtoField.uint32("kcp.crc", "CRC32", base.HEX),
  crc_good  = ProtoField.bool("kcp.crc.good", "CRC32 good", base.NONE),
  fec_seqid = ProtoField.uint32("kcp.fec.seqid", "FEC sequence id", base.DEC),
  fec_type  = ProtoField.uint16("kcp.fec.type", "FEC type", base.HEX, FEC_TYPES),
  fec_size  = ProtoField.uint16("kcp.fec.size", "FEC data size", base.DEC),
  fec_par   = ProtoField.bytes("kcp.fec.parity", "FEC parity (Reed-Solomon)"),
  segments  = ProtoField.uint16("kcp.segments", "Segments in datagram", base.DEC),
  conv      = ProtoField.uint32("kcp.conv", "Conversation", base.HEX),
  cmd       = ProtoField.uint8("kcp.cmd", "Command", base.DEC, CMD_NAMES),
  frg       = ProtoField.uint8("kcp.frg", "Fragments remaining", base.DEC),
  wnd       = ProtoField.uint16("kcp.wnd", "Receive window", base.DEC),
  ts        = ProtoField.uint32("kcp.ts", "Timestamp (ms)", base.DEC),
  sn        = ProtoField.uint32("kcp.sn", "Sequence number", base.DEC),
  ack_ts    = ProtoField.uint32("kcp.ack.ts", "Acked segment's timestamp (ms)", base.DEC),
  ack_sn    = ProtoField.uint32("kcp.ack.sn", "Acked sequence number", base.DEC),
  probe_ts  = ProtoField.uint32("kcp.probe.ts", "Timestamp (unused)", base.DEC),
  probe_sn  = ProtoField.uint32("kcp.probe.sn", "Sequence number (unused)", base.DEC),
  una       = ProtoField.uint32("kcp.una", "Unacknowledged (next expected sn)", base.DEC),
  len       = ProtoField.uint32("kcp.len", "Data length", base.DEC),
  data      = ProtoField.bytes("kcp.data", "Data"),
}
kcp.fields = { f.framing, f.nonce, f.crc, f.crc_good, f.fec_seqid, f.fec_type, f.fec_size,
               f.fec_par, f.segments, f.conv, f.cmd, f.frg, f.wnd, f.ts, f.sn, f.ack_ts,
               f.ack_sn, f.probe_ts, f.probe_sn, f.una, f.len, f.data }

local e_trunc = ProtoExpert.new("kcp.truncated", "Segment longer than the datagram",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_cmd = ProtoExpert.new("kcp.bad_cmd", "Unknown KCP command (expected 81..84)",
                              expert.group.MALFORMED, expert.severity.ERROR)
local e_trail = ProtoExpert.new("kcp.trailing", "Bytes after the last segment, shorter than a header",
                                expert.group.MALFORMED, expert.severity.ERROR)
local e_crc = ProtoExpert.new("kcp.bad_crc", "CRC32 does not match",
                              expert.group.CHECKSUM, expert.severity.ERROR)
kcp.experts = { e_trunc, e_cmd, e_trail, e_crc }

kcp.prefs.ports = Pref.range("UDP ports", "", "UDP ports always decoded as KCP", 65535)
kcp.prefs.framing = Pref.enum("Framing", 0, "kcp-go framing: auto-detect or force one",
  { { 1, "auto", 0 }, { 2, "plain", 1 }, { 3, "crc", 2 }, { 4, "fec", 3 }, { 5, "crc+fec", 4 } }, false)

local band, bxor, rshift, tobit = bit.band, bit.bxor, bit.rshift, bit.tobit
local floor = math.floor
local byte = string.byte

-- CRC32-IEEE (reflected, polynomial 0xEDB88320), values as bit.tobit() gives them.
local CRC_TABLE = {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do
    if band(c, 1) ~= 0 then c = bxor(rshift(c, 1), 0xEDB88320) else c = rshift(c, 1) end
  end
  CRC_TABLE[i] = c
end

local function crc32(s)
  local c = tobit(0xFFFFFFFF)
  for i = 1, #s do
    c = bxor(CRC_TABLE[band(bxor(c, byte(s, i)), 0xFF)], rshift(c, 8))
  end
  return tobit(bit.bnot(c))
end

local function unsigned(v)
  v = tobit(v)
  if v < 0 then v = v + 4294967296 end
  return v
end

-- Parses KCP segments in [off, stop). Returns the list of segments and an
-- error reason (nil when every segment is well formed and they end at stop).
-- strict: also demand what a real KCP sender always does (heuristics).
local function parse_segments(tvb, off, stop, strict)
  local segs = {}
  local conv0
  while stop - off >= SEG_HDR do
    local conv = tvb(off, 4):le_uint()
    local cmd = tvb(off + 4, 1):uint()
    local frg = tvb(off + 5, 1):uint()
    local dlen = tvb(off + 20, 4):le_uint()
    local s = { off = off, cmd = cmd, dlen = dlen }
    segs[#segs + 1] = s
    if not CMD_NAMES[cmd] then return segs, "bad_cmd" end
    if dlen > stop - off - SEG_HDR then return segs, "truncated" end
    if strict then
      if conv0 and conv ~= conv0 then return segs, "conv" end
      if cmd ~= CMD_PUSH and (dlen ~= 0 or frg ~= 0) then return segs, "non-push data" end
    end
    conv0 = conv
    off = off + SEG_HDR + dlen
  end
  if off ~= stop then return segs, "trailing" end
  if #segs == 0 then return segs, "empty" end
  return segs, nil
end

-- Conversations seen with FEC data shards (plain FEC parity shards need it).
local fec_flows = {}
local function flow_key(pinfo)
  local a = tostring(pinfo.src) .. ":" .. pinfo.src_port
  local b = tostring(pinfo.dst) .. ":" .. pinfo.dst_port
  if a < b then return a .. "-" .. b end
  return b .. "-" .. a
end

function kcp.init()
  fec_flows = {}
end

-- The FEC part at `off`: { seqid, ftype, size, segs } or nil.
local function try_fec(tvb, pinfo, off, len, crc_ok)
  if len - off < FEC_HDR + 2 then return nil end
  local ftype = tvb(off + 4, 2):le_uint()
  if ftype == FEC_DATA then
    local size = tvb(off + FEC_HDR, 2):le_uint()
    if size < 2 or off + FEC_HDR + size ~= len then return nil end
    local segs, err = parse_segments(tvb, off + FEC_HDR + 2, len, true)
    if err then return nil end
    return { seqid = tvb(off, 4):le_uint(), ftype = ftype, size = size, segs = segs }
  elseif ftype == FEC_PARITY then
    if not crc_ok and not fec_flows[flow_key(pinfo)] then return nil end
    return { seqid = tvb(off, 4):le_uint(), ftype = ftype, segs = {} }
  end
  return nil
end

-- Finds the framing: returns { name, kcp_off, crc (stored), crc_ok, fec, segs, err } or nil.
-- forced: framing index 1..4 from the preference, 0 = auto. strict: heuristic.
local function detect(tvb, pinfo, forced, strict)
  local len = tvb:len()
  local try_plain = forced == 0 or forced == 1
  if try_plain then
    local segs, err = parse_segments(tvb, 0, len, strict)
    if not err or forced == 1 then return { name = 1, kcp_off = 0, segs = segs, err = err } end
  end
  if forced == 0 or forced == 2 or forced == 4 then
    -- Before the CRC (a loop over every byte): what follows the 20 bytes must
    -- look like a KCP segment (cmd 81..84) or an FEC header (type 0x00f1/f2).
    local plausible = false
    if len >= CRYPT_HDR + FEC_HDR + 2 then
      local c = tvb(CRYPT_HDR + 4, 1):uint()
      plausible = forced ~= 0 or (CMD_NAMES[c] and len >= CRYPT_HDR + SEG_HDR)
        or ((c == FEC_DATA or c == FEC_PARITY) and tvb(CRYPT_HDR + 5, 1):uint() == 0)
    end
    if plausible then
      local stored = tvb(16, 4):le_uint()
      local ok = crc32(tvb(CRYPT_HDR, len - CRYPT_HDR):raw()) == tobit(stored)
      -- A wrong CRC: the heuristic leaves the datagram alone; on a KCP port
      -- (or a forced framing) it is shown with the bad CRC when what follows
      -- parses completely.
      if ok or not strict or forced ~= 0 then
        if forced ~= 2 then
          local fec = try_fec(tvb, pinfo, CRYPT_HDR, len, ok)
          if fec or forced == 4 then
            return { name = 4, kcp_off = CRYPT_HDR, crc = stored, crc_ok = ok, fec = fec,
                     segs = fec and fec.segs or {}, err = (not fec) and "fec" or nil }
          end
        end
        local segs, err = parse_segments(tvb, CRYPT_HDR, len, (strict or not ok) and forced == 0)
        if not err or forced == 2 then
          return { name = 2, kcp_off = CRYPT_HDR, crc = stored, crc_ok = ok, segs = segs, err = err }
        end
      end
    end
  end
  if forced == 0 or forced == 3 then
    local fec = try_fec(tvb, pinfo, 0, len, false)
    if fec then return { name = 3, kcp_off = 0, fec = fec, segs = fec.segs } end
  end
  return nil
end

local REASONS = { bad_cmd = "unknown command", truncated = "segment longer than the datagram",
                  trailing = "trailing bytes", empty = "no segment", fec = "bad FEC header",
                  conv = "conversation changes", framing = "no framing fits", ["non-push data"] = "data on a non-PUSH segment" }

local function dissect_with(fr, tvb, pinfo, tree)
  local len = tvb:len()
  pinfo.cols.protocol = "KCP"
  local t = tree:add(kcp, tvb(0, len))
  t:add(f.framing, FRAMINGS[fr.name])
  local prefix = ""
  if fr.crc then
    t:add(f.nonce, tvb(0, 16))
    local ci = t:add_le(f.crc, tvb(16, 4))
    t:add(f.crc_good, fr.crc_ok)
    if not fr.crc_ok then ci:add_proto_expert_info(e_crc) end
    prefix = "[crc] "
  end
  local fec = fr.fec
  if fec then
    local off = fr.kcp_off
    t:add_le(f.fec_seqid, tvb(off, 4))
    t:add_le(f.fec_type, tvb(off + 4, 2))
    prefix = "[" .. (fr.crc and "crc+fec " or "fec ") .. fec.seqid .. "] "
    if fec.ftype == FEC_PARITY then
      local plen = len - off - FEC_HDR
      if plen > 0 then t:add(f.fec_par, tvb(off + FEC_HDR, plen)) end
      pinfo.cols.info = prefix .. "parity " .. plen .. " bytes"
      return len
    end
    t:add_le(f.fec_size, tvb(off + FEC_HDR, 2))
    if not fr.crc then fec_flows[flow_key(pinfo)] = true end
  end

  local segs = fr.segs
  t:add(f.segments, #segs)
  local info = {}
  for i = 1, #segs do
    local s = segs[i]
    local o = s.off
    local avail = len - o
    if avail > SEG_HDR + s.dlen then avail = SEG_HDR + s.dlen end
    local st = t:add(tvb(o, avail), "KCP segment")
    local cmd = s.cmd
    st:add_le(f.conv, tvb(o, 4))
    local ci = st:add(f.cmd, tvb(o + 4, 1))
    st:add(f.frg, tvb(o + 5, 1))
    st:add_le(f.wnd, tvb(o + 6, 2))
    local ts_r, sn_r = tvb(o + 8, 4), tvb(o + 12, 4)
    if cmd == CMD_ACK then
      st:add_le(f.ack_ts, ts_r)
      st:add_le(f.ack_sn, sn_r)
    elseif cmd == CMD_WASK or cmd == CMD_WINS then
      st:add_le(f.probe_ts, ts_r)
      st:add_le(f.probe_sn, sn_r)
    else
      st:add_le(f.ts, ts_r)
      st:add_le(f.sn, sn_r)
    end
    local una = tvb(o + 16, 4):le_uint()
    st:add_le(f.una, tvb(o + 16, 4))
    st:add_le(f.len, tvb(o + 20, 4))
    local dl = avail - SEG_HDR
    if dl > 0 then st:add(f.data, tvb(o + SEG_HDR, dl)) end
    if cmd == CMD_PUSH then
      local e = "PUSH sn=" .. sn_r:le_uint() .. " una=" .. una .. " len=" .. s.dlen
      local frg = tvb(o + 5, 1):uint()
      if frg ~= 0 then e = e .. " frg=" .. frg end
      info[#info + 1] = e
    elseif cmd == CMD_ACK then
      info[#info + 1] = "ACK sn=" .. sn_r:le_uint() .. " una=" .. una
    elseif CMD_NAMES[cmd] then
      info[#info + 1] = CMD_NAMES[cmd] .. " una=" .. una .. " wnd=" .. tvb(o + 6, 2):le_uint()
    else
      info[#info + 1] = "CMD" .. cmd
      ci:add_proto_expert_info(e_cmd)
    end
    if SEG_HDR + s.dlen > len - o then st:add_proto_expert_info(e_trunc) end
  end
  if fr.err == "trailing" then
    local last = segs[#segs]
    local from = last and (last.off + SEG_HDR + last.dlen) or fr.kcp_off
    t:add_tvb_expert_info(e_trail, tvb(from, len - from))
  end
  if fr.err then
    pinfo.cols.info = "KCP malformed: " .. (REASONS[fr.err] or fr.err)
  else
    pinfo.cols.info = prefix .. table.concat(info, " | ")
  end
  return len
end

function kcp.dissector(tvb, pinfo, tree)
  local len = tvb:len()
  if len < SEG_HDR then return 0 end
  local fr = detect(tvb, pinfo, floor(kcp.prefs.framing), false)
  if not fr then
    -- On a KCP port: show what the plain reading finds, marked malformed.
    local segs, err = parse_segments(tvb, 0, len, false)
    fr = { name = 1, kcp_off = 0, segs = segs, err = err or "framing" }
  end
  return dissect_with(fr, tvb, pinfo, tree)
end

local function heuristic(tvb, pinfo, tree)
  local len = tvb:len()
  if len < FEC_HDR + 2 then return false end
  local fr = detect(tvb, pinfo, floor(kcp.prefs.framing), true)
  if not fr or fr.err then return false end
  if fr.crc and not fr.crc_ok then return false end
  dissect_with(fr, tvb, pinfo, tree)
  return true
end
kcp:register_heuristic("udp", heuristic)

local udp_port = DissectorTable.get("udp.port")
local registered_ports = ""
function kcp.prefs_changed()
  local ports = tostring(kcp.prefs.ports)
  if ports ~= registered_ports then
    if registered_ports ~= "" then udp_port:remove(registered_ports, kcp) end
    registered_ports = ports
    if registered_ports ~= "" then udp_port:add(registered_ports, kcp) end
  end
end
