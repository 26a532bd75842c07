// Fuzz target 4: the flow layer. Arbitrary FieldValue streams go through a
// SegmentExtractor (GRUDP's contract or one built from the input) and the
// resulting packets through one ConnectionTable, with UDP and TCP mixed in.
//
// Input: u8 mode | [contract: 16 field slots, seq bits, ack style, kinds]
//        then packets: u8 kind/endpoints | u8 nvalues | values...
#include <algorithm>
#include <optional>

#include "core/error.h"
#include "flow/connection_table.h"
#include "flow/segment_extractor.h"
#include "fuzz_common.h"
#include "lua/dissector_files.h"
#include "lua/host.h"

using namespace rudp;

namespace {

constexpr int kSynthFields = 16;

LuaHost& host() {
  static LuaHost* h = [] {
    auto* p = new LuaHost;
    loadDissectors(*p, DissectorOptions{});
    return p;
  }();
  return *h;
}

// A contract whose field ids come from the input (-1..kSynthFields-1 each),
// so fields mapped twice, segment markers and missing fields all happen.
Contract synthContract(fuzz::Reader& in) {
  auto f = [&] { return static_cast<int>(in.u8() % (kSynthFields + 1)) - 1; };
  Contract c;
  c.proto = "synth";
  c.proto_index = 0;
  c.segment = f();
  c.conn_id = f();
  c.kind = f();
  c.seq = f();
  c.reliable = f();
  c.unsequenced = f();
  c.ack = f();
  c.ack_bitmap = f();
  c.ack_valid = f();
  c.una = f();
  c.ts = f();
  c.ts_echo = f();
  c.ts_echo_valid = f();
  c.channel = f();
  c.length = f();
  c.window = f();
  c.seq_bits = 1 + in.u8() % 64;
  c.ts_bits = 1 + in.u8() % 64;
  c.ack_style = static_cast<AckStyle>(in.u8() % 4);
  const int kinds = in.u8() % 8;
  for (int i = 0; i < kinds; ++i) {
    KindRole k;
    const uint8_t b = in.u8();
    k.role = static_cast<SegmentRole>(b % 8);
    k.consumes_seq = (b & 0x08) != 0;
    k.reliability = static_cast<Reliability>((b >> 4) % 4);
    c.kinds[in.u8() % 16] = k;
  }
  return c;
}

// Endpoints from a tiny set, so packets collide into shared connections.
void endpoints(uint8_t b, DecodedPacket& p) {
  const bool v6 = b & 0x80;
  p.l3 = v6 ? L3::IPv6 : L3::IPv4;
  p.src = p.dst = IpAddress{};
  p.src.family = p.dst.family = v6 ? 6 : 4;
  p.src.bytes[0] = p.dst.bytes[0] = 10;
  p.src.bytes[3] = 1 + (b & 1);
  p.dst.bytes[3] = 1 + ((b >> 1) & 1);
  static constexpr uint16_t kPorts[] = {7777, 40000, 40001, 0};
  p.sport = kPorts[(b >> 2) & 3];
  p.dport = kPorts[(b >> 4) & 3];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  LuaHost& h = host();
  fuzz::Reader in(data, size);
  const uint8_t mode = in.u8();

  // GRUDP's own contract (as the host resolved it), or a synthetic one.
  std::optional<Contract> synth;
  const Contract* contract = nullptr;
  size_t fieldCount = 0;
  std::string protoName;
  int protoIndex = 0;
  if (mode & 1) {
    synth = synthContract(in);
    contract = &*synth;
    fieldCount = kSynthFields;
    protoName = "synth";
  } else {
    for (size_t i = 0; i < h.protocols().size(); ++i)
      if (h.protocols()[i].has_contract) {
        contract = &h.protocols()[i].contract;
        protoName = h.protocols()[i].name;
        protoIndex = static_cast<int>(i);
        break;
      }
    if (!contract) return 0;
    fieldCount = h.fields().size();
  }
  SegmentExtractor ex(*contract, fieldCount);
  ConnectionTable table;

  DissectResult res;
  std::vector<Segment> segs;
  DecodedPacket pkt;
  uint64_t counted = 0;
  int64_t ts = 1'700'000'000'000'000'000;
  std::vector<std::unique_ptr<Connection>> closed;
  for (uint64_t frame = 1; !in.empty() && frame <= 2048; ++frame) {
    const uint8_t kind = in.u8();
    if (kind == 0xFF) {  // close idle connections (idle > 100 ms, at most 6 open)
      const size_t before = closed.size();
      table.closeIdle(ts, 100'000'000, 6, closed);
      if (table.connections().size() > 6) fuzz::fail("more open connections than the cap");
      for (size_t i = before; i < closed.size(); ++i)
        if (!closed[i]->closed) fuzz::fail("closed connection not marked");
      continue;
    }
    endpoints(in.u8(), pkt);
    pkt.frame = frame;
    ts += in.u8() * 1'000'000;
    pkt.ts_ns = ts;
    pkt.caplen = pkt.origlen = 60;
    pkt.payload_len = pkt.payload_reported_len = 18;
    ConnectionTable::Hit hit;
    segs.clear();
    switch (kind % 4) {
      case 0:
      case 1: {  // a contract datagram
        pkt.l4 = L4::UDP;
        pkt.ip_proto = 17;
        res.clear();
        res.proto = protoIndex;
        const int n = in.u8() % 32;
        for (int i = 0; i < n; ++i) {
          FieldValue v;
          v.field = static_cast<int>(in.u8() % (fieldCount + 2)) - 1;  // incl. ids out of range
          const uint8_t w = in.u8();
          v.u = (w & 0x80) ? in.u64() : (w & 0x7f);
          res.values.push_back(v);
        }
        ex.extract(res, segs);
        for (const Segment& s : segs)
          if (s.reliability == Reliability::FromField) fuzz::fail("unresolved reliability");
        hit = table.contractPacket(protoIndex, protoName, segs.empty() ? nullptr : &segs.front(), pkt);
        break;
      }
      case 2:  // UDP no dissector claimed
        pkt.l4 = L4::UDP;
        pkt.ip_proto = 17;
        hit = table.udpPacket(pkt);
        break;
      case 3:  // TCP, any flags
        pkt.l4 = L4::TCP;
        pkt.ip_proto = 6;
        pkt.tcp.flags = in.u8();
        pkt.tcp.seq = in.u32();
        pkt.tcp.ack = in.u32();
        hit = table.tcpPacket(pkt);
        break;
    }
    if (hit.conn) {
      ConnectionTable::count(hit, pkt, static_cast<uint32_t>(segs.size()), kind & 0x80);
      ++counted;
    }
  }

  // Connections, closed and open, are numbered 1.. in order and hold every
  // counted packet.
  uint64_t total = 0;
  int64_t id = 0;
  for (const auto& c : table.connections()) closed.push_back(std::make_unique<Connection>(*c));
  std::sort(closed.begin(), closed.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
  if (static_cast<int64_t>(closed.size()) != table.created()) fuzz::fail("connections lost");
  for (const auto& c : closed) {
    if (c->id != ++id) fuzz::fail("connection ids not consecutive");
    total += c->dir[0].packets + c->dir[1].packets;
    (void)c->client.toString();
    (void)c->server.toString();
  }
  if (total != counted) fuzz::fail("packets counted differ from packets hit");
  return 0;
}
