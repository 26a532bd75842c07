#include "sim_feed.h"

#include <algorithm>
#include <filesystem>

#include <unistd.h>

namespace anatest {

using namespace grudp_sim;

rudp::Segment toSegment(const Header& h) {
  rudp::Segment s;
  static const SegmentRole kRoles[] = {SegmentRole::Data,   SegmentRole::Ack,        SegmentRole::Connect,
                                       SegmentRole::Accept, SegmentRole::Disconnect, SegmentRole::Ping,
                                       SegmentRole::Pong};
  s.role = h.type <= 6 ? kRoles[h.type] : SegmentRole::Other;
  s.consumes_seq = h.type != kAck;
  s.reliability = (h.flags & kReliable)      ? Reliability::Reliable
                  : (h.flags & kUnsequenced) ? Reliability::Unsequenced
                                             : Reliability::Unreliable;
  s.conn_id = h.conn_id;
  s.kind = h.type;
  s.seq = h.seq;
  s.ack = h.ack;
  s.ack_bits = h.ack_bits;
  s.ts = h.ts;
  s.ts_echo = h.ts_echo;
  s.channel = h.channel;
  s.length = h.length;
  s.window = h.window;
  s.has =
      Segment::ConnId | Segment::Kind | Segment::Ts | Segment::Channel | Segment::Length | Segment::Window;
  if (s.consumes_seq) s.has |= Segment::Seq;
  if (h.flags & kAckFlag) s.has |= Segment::Ack | Segment::AckBits;
  if (h.flags & kEcho) s.has |= Segment::Echo;
  return s;
}

const PacketRecord& SimRun::record(uint64_t frame) const {
  const Ref& r = frames.at(frame);
  return sim->truth()[size_t(r.conn)].dir[r.dir].packets[r.idx];
}

const DirTruth& SimRun::truth(int conn, int dir) const { return sim->truth()[size_t(conn)].dir[dir]; }

SimRun runAndAnalyse(const SimConfig& cfg, const rudp::ana::AnalyzerConfig& acfg) {
  SimRun run;
  run.cfg = cfg;
  run.sim = std::make_unique<Simulator>(cfg);
  const auto path =
      std::filesystem::temp_directory_path() / ("ana-truth-" + std::to_string(::getpid()) + ".pcap");
  const RunResult rr = run.sim->run(path.string(), true);
  std::filesystem::remove(path);

  run.frames.assign(rr.frames + 1, {});
  const auto& truth = run.sim->truth();
  for (size_t c = 0; c < truth.size(); ++c)
    for (int d = 0; d < 2; ++d)
      for (size_t i = 0; i < truth[c].dir[d].packets.size(); ++i) {
        const PacketRecord& p = truth[c].dir[d].packets[i];
        if (p.frame) run.frames.at(p.frame) = {int(c), d, uint32_t(i)};
      }

  const rudp::Contract contract = grudpContract();
  std::vector<std::unique_ptr<rudp::ana::ContractAnalyzer>> an;
  for (size_t c = 0; c < truth.size(); ++c) {
    run.rec.push_back(std::make_unique<Recorder>());
    an.push_back(std::make_unique<rudp::ana::ContractAnalyzer>(contract, acfg, run.rec.back().get()));
  }
  for (uint64_t f = 1; f <= rr.frames; ++f) {
    const SimRun::Ref& r = run.frames[f];
    if (r.conn < 0) continue;
    const PacketRecord& p = truth[size_t(r.conn)].dir[r.dir].packets[r.idx];
    const rudp::Segment seg = toSegment(p.h);
    // Each endpoint numbers its datagrams' IPv4 ids consecutively, so the
    // record index (send order) is the id up to a constant.
    an[size_t(r.conn)]->onPacket(f, p.capture_ns, rudp::Direction(r.dir), &seg, 1,
                                 uint32_t(14 + 20 + 8 + 32 + p.h.length), int32_t(r.idx & 0xFFFF));
  }
  for (auto& a : an) run.metrics.push_back(a->finish());
  return run;
}

}  // namespace anatest
