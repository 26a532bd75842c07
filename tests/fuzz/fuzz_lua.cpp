// Fuzz target 3: the Lua host running the shipped dissectors (every *.lua of
// dissectors/, grudp.lua today) on arbitrary UDP payloads. One host, created
// once and reused, as ingest uses it.
//
// Input: u8 mode | u16 port a | u16 port b | u8 extra | payload...
//   mode & 3 picks which port is a dissector's table port (GRUDP's 7777),
//   so the port table and the heuristic (no known port) both run.
#include <optional>
#include <set>

#include "core/error.h"
#include "flow/segment_extractor.h"
#include "fuzz_common.h"
#include "lua/dissector_files.h"
#include "lua/host.h"

using namespace rudp;

namespace {

LuaHost& host() {
  static LuaHost* h = [] {
    auto* p = new LuaHost;  // lives for the process: its state is what we fuzz
    loadDissectors(*p, DissectorOptions{});
    return p;
  }();
  return *h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  LuaHost& h = host();
  static std::vector<std::optional<SegmentExtractor>> extractors = [&] {
    std::vector<std::optional<SegmentExtractor>> v(h.protocols().size());
    for (size_t i = 0; i < v.size(); ++i)
      if (h.protocols()[i].has_contract) v[i].emplace(h.protocols()[i].contract, h.fields().size());
    return v;
  }();
  static uint64_t frame = 0;

  fuzz::Reader in(data, size);
  const uint8_t mode = in.u8();
  uint16_t a = in.u16(), b = in.u16();
  const uint8_t extra = in.u8();
  switch (mode & 3) {
    case 0: b = 7777; break;  // dst on the table port
    case 1: a = 7777; break;  // src on the table port
    case 2:
      if (a == 7777) a = 7778;
      if (b == 7777) b = 7778;
      break;        // heuristic only
    case 3: break;  // as given
  }
  std::vector<uint8_t> payload = in.bytes(in.left());

  DecodedPacket pkt;
  pkt.frame = ++frame;
  pkt.ts_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(frame) * 1'000'000;
  pkt.l3 = (mode & 4) ? L3::IPv6 : L3::IPv4;
  pkt.src.family = pkt.dst.family = (mode & 4) ? 6 : 4;
  pkt.src.bytes[0] = 10;
  pkt.src.bytes[3] = 1;
  pkt.dst.bytes[0] = 10;
  pkt.dst.bytes[3] = 2;
  pkt.ip_proto = 17;
  pkt.l4 = L4::UDP;
  pkt.sport = a;
  pkt.dport = b;
  pkt.payload = payload.empty() ? nullptr : payload.data();
  pkt.payload_len = static_cast<uint32_t>(payload.size());
  // Sometimes snapped: the headers claim more than was captured.
  pkt.payload_reported_len = pkt.payload_len + ((mode & 8) ? extra : 0);
  pkt.caplen = pkt.payload_len + 42;
  pkt.origlen = pkt.payload_reported_len + 42;

  DissectResult res;
  h.dissectUdp(pkt, (mode & 16) != 0, res);

  if (res.proto < -1 || res.proto >= static_cast<int>(h.protocols().size()))
    fuzz::fail("proto index out of range");
  for (const FieldValue& v : res.values) {
    if (v.field < 0 || v.field >= static_cast<int>(h.fields().size())) fuzz::fail("field id out of range");
    if (static_cast<size_t>(v.str_off) + v.str_len > res.strings.size())
      fuzz::fail("string slice past the arena");
    (void)h.formatValue(v, res);
  }
  // The shipped dissectors are expected never to raise on packet content:
  // report each distinct error once (a finding, though not a crash).
  if (res.lua_error) {
    static std::set<std::string> seen;
    if (seen.size() < 20 && seen.insert(res.error).second)
      std::fprintf(stderr, "fuzz_lua: dissector error: %s\n", res.error.c_str());
  }
  if (res.proto >= 0 && extractors[res.proto]) {
    std::vector<Segment> segs;
    extractors[res.proto]->extract(res, segs);
  }
  return 0;
}
