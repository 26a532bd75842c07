// Fuzz target 4b: the connection analyzers (rudp_analyzers) fed arbitrary
// segment streams: ContractAnalyzer under a contract built from the input,
// TwoLevelAnalyzer under arbitrary datagrams (mode & 3 == 3), or TcpAnalyzer
// under arbitrary TCP headers. Seqs, acks and timestamps are
// mostly small steps from the last ones, so the fuzzer reaches windows,
// wraps, retransmissions and losses instead of only random jumps.
//
// Input: u8 mode | contract bytes | packets:
//   u8 dir/nsegs | u8 ts step | segments (contract) or TCP header bytes
#include "analyzers/contract_analyzer.h"
#include "analyzers/tcp_analyzer.h"
#include "analyzers/two_level_analyzer.h"
#include "fuzz_common.h"

using namespace rudp;
using namespace rudp::ana;

namespace {

// Touches every event, so a bad reference in one shows up under ASan.
struct Sink : EventSink {
  uint64_t n = 0;
  void onRate(const RateEvent&) override { ++n; }
  void onRtt(const RttEvent&) override { ++n; }
  void onRetransmission(const RetransmissionEvent&) override { ++n; }
  void onLoss(const LossEvent&) override { ++n; }
  void onStall(const StallEvent&) override { ++n; }
};

// Bounded per connection by design (analyzers/contract_analyzer.h: two seq
// windows of at most 4096 slots and fixed-size trackers).
constexpr size_t kMaxAnalyzerBytes = 64u << 20;

// Datagrams of a two-level protocol: numbers, ack records and messages in
// small steps from the last ones, so resends, NAKs, gaps, wraps and split
// messages are reached. Per datagram: u8 h (bit 0 direction, 1 numbered,
// 2 NAK, 3-4 records, 5-6 messages, 7 long step) | u8 step | fields.
void twoLevel(fuzz::Reader& in, const AnalyzerConfig& cfg, EventSink& sink, int64_t ns) {
  TwoLevelContract contract;
  contract.number_bits = 8 + in.u8() % 25;
  contract.msg_id_bits = 8 + in.u8() % 25;
  TwoLevelAnalyzer an(contract, cfg, &sink);
  uint32_t number[2] = {0, 0}, id[2] = {0, 0}, order[2] = {0, 0};
  TwoLevelDatagram d;
  for (uint64_t frame = 1; !in.empty() && frame < 20000; ++frame) {
    const uint8_t h = in.u8();
    const int dir = h & 1;
    ns += static_cast<int64_t>(in.u8()) * ((h & 0x80) ? 100'000'000 : 1'000'000);
    d.clear();
    d.has_number = h & 2;
    const auto dn = static_cast<int8_t>(in.u8());
    number[dir] = dn == -128 ? in.u32() : number[dir] + 1 + dn;
    d.number = number[dir];
    d.nak = h & 4;
    d.repeated_number = (h & 0x1c) == 0x1c;
    for (int r = 0; r < ((h >> 3) & 3); ++r) {
      const uint32_t first = number[dir ^ 1] - in.u8();
      d.acks.push_back({first, first + in.u8()});
    }
    for (int m = 0; m < ((h >> 5) & 3); ++m) {
      Message msg;
      const uint8_t k = in.u8();
      msg.cls = static_cast<MessageClass>(k % 5);
      msg.has_id = k & 8;
      id[dir] += static_cast<int8_t>(in.u8());
      msg.id = id[dir];
      msg.has_order = k & 16;
      order[dir] += static_cast<int8_t>(in.u8());
      msg.order_index = order[dir];
      msg.channel = (k >> 5) & 3;
      msg.split = k & 0x80;
      msg.split_id = in.u8();
      msg.split_count = in.u8();
      msg.split_index = in.u8();
      d.messages.push_back(msg);
    }
    an.onPacket(frame, ns, static_cast<Direction>(dir), d, 60 + in.u8());
  }
  (void)an.finish();
}

Contract contractFrom(uint8_t mode, fuzz::Reader& in) {
  Contract c;
  c.proto = "synth";
  const uint8_t a = in.u8(), b = in.u8(), t = in.u8();
  c.ack_style = static_cast<AckStyle>(a % 4);
  c.seq_bits = 1 + b % 64;  // the range the contract parser accepts
  // ts.bits / ts.unit_ms are not range-checked by the contract parser, so
  // any value can reach the analyzer: mode bit 1 tries the odd ones.
  c.ts_bits = (mode & 2) ? static_cast<int8_t>(t) : 1 + t % 32;
  static constexpr double kUnits[] = {1.0, 0.001, 0.01, 10.0, 1000.0, 0.0, -1.0, __builtin_nan("")};
  c.ts_unit_ms = kUnits[(a >> 2) % ((mode & 2) ? 8 : 5)];
  // Which optional fields the contract declares (ids only matter as >= 0).
  c.ts = (a & 0x20) ? 1 : -1;
  c.ts_echo = (a & 0x40) ? 2 : -1;
  c.una = (a & 0x80) ? 3 : -1;
  c.ack = c.ack_style == AckStyle::None ? -1 : 4;
  c.seq = 5;
  c.window = 6;
  c.channel = 7;
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader in(data, size);
  const uint8_t mode = in.u8();
  AnalyzerConfig cfg;
  cfg.stall_ms = 1 + in.u8() * 4;
  cfg.exact_rtt_samples = 1 + in.u8() * 16;
  Sink sink;

  uint32_t seq[2] = {1000, 9000}, ts[2] = {0, 0};
  int64_t ns = 1'700'000'000'000'000'000;
  uint64_t frame = 0;

  if ((mode & 3) == 3) {
    twoLevel(in, cfg, sink, ns);
  } else if ((mode & 1) == 0) {
    const Contract c = contractFrom(mode, in);
    ContractAnalyzer an(c, cfg, &sink);
    Segment segs[4];
    while (!in.empty() && frame < 20000) {
      const uint8_t h = in.u8();
      const int d = h & 1;
      const size_t n = (h >> 1) & 3;  // 0..3 segments
      const uint8_t step = in.u8();
      ns += static_cast<int64_t>(step) * ((h & 0x80) ? 100'000'000 : 1'000'000);
      const uint32_t now_ms = static_cast<uint32_t>(ns / 1'000'000);
      for (size_t i = 0; i < n; ++i) {
        Segment& s = segs[i];
        s = Segment{};
        s.has = in.u16();
        const uint8_t r = in.u8();
        s.role = static_cast<SegmentRole>(r % 8);
        s.consumes_seq = (r & 0x08) == 0;
        s.reliability = static_cast<Reliability>(1 + (r >> 4) % 3);  // resolved: never FromField
        const auto dseq = static_cast<int8_t>(in.u8());
        seq[d] = dseq == -128 ? in.u32() : seq[d] + dseq;
        s.seq = seq[d];
        const auto dack = static_cast<int8_t>(in.u8());
        s.ack = seq[d ^ 1] + dack;
        s.ack_bits = (r & 0x40) ? in.u32() : 0xffffffffu >> (dack & 31);
        s.una = s.ack - (in.u8() & 7);
        ts[d] = now_ms + static_cast<int8_t>(in.u8());
        s.ts = ts[d];
        s.ts_echo = ts[d ^ 1] - (in.u8() & 15);
        s.conn_id = 1;
        s.kind = r & 7;
        s.channel = in.u8() & 3;
        s.length = in.u8();
        s.window = in.u8();
        if (s.is(Segment::Nak)) {  // a loss-list entry, now and then one far beyond the window
          s.nak_first = seq[d ^ 1] - in.u8();
          const uint8_t span = in.u8();
          s.nak_last = s.nak_first + (span == 255 ? in.u32() : span % 64);
        }
      }
      const int32_t ip_id = (h & 0x40) ? in.u16() : -1;
      an.onPacket(++frame, ns, static_cast<Direction>(d), n ? segs : nullptr, n, 60 + in.u8(), ip_id);
      if ((frame & 255) == 0 && an.memoryBytes() > kMaxAnalyzerBytes)
        fuzz::fail("contract analyzer memory unbounded");
    }
    if (an.memoryBytes() > kMaxAnalyzerBytes) fuzz::fail("contract analyzer memory unbounded");
    (void)an.finish();
    (void)an.vantage();
  } else {
    TcpAnalyzer an(cfg, &sink);
    DecodedPacket p;
    p.l3 = L3::IPv4;
    p.l4 = L4::TCP;
    p.ip_proto = 6;
    while (!in.empty() && frame < 20000) {
      const uint8_t h = in.u8();
      const int d = h & 1;
      ns += static_cast<int64_t>(in.u8()) * ((h & 0x80) ? 100'000'000 : 1'000'000);
      TcpHeader& t = p.tcp;
      t = TcpHeader{};
      t.flags = in.u8();
      const auto dseq = static_cast<int16_t>(in.u16());
      seq[d] = (h & 2) ? in.u32() : seq[d] + dseq;
      t.seq = seq[d];
      t.ack = seq[d ^ 1] - (in.u8() & 63) * ((h & 4) ? 1460 : 1);
      t.window = in.u16();
      t.header_len = 20;
      p.payload_len = p.payload_reported_len = in.u16() % 9000;
      if (h & 8) {
        t.options.has_timestamps = true;
        ts[d] += in.u8();
        t.options.tsval = ts[d];
        t.options.tsecr = ts[d ^ 1] - (in.u8() & 7);
      }
      if (h & 16) {
        t.options.mss = in.u16();
        t.options.window_scale = static_cast<int8_t>(in.u8() % 16);
        t.options.sack_permitted = true;
      }
      if (h & 32) {
        t.options.sack_block_count = in.u8() % 5;
        for (uint8_t i = 0; i < t.options.sack_block_count; ++i) {
          const uint32_t l = seq[d ^ 1] - in.u16();
          t.options.sack_blocks[i] = {l, l + in.u16()};
        }
      }
      p.frame = ++frame;
      p.ts_ns = ns;
      an.onPacket(frame, ns, static_cast<Direction>(d), p, 54 + p.payload_len);
    }
    (void)an.finish();
  }
  return 0;
}
