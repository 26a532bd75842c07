#include "widgets/sequence_graph_builder.h"

#include "core/contract.h"

namespace rudp::gui {

namespace {
constexpr int64_t kTcpSyn = 0x02, kTcpFin = 0x01;
}

// TCP rows have no role: data is a segment with payload, SYN or FIN. Pure
// acks of the custom protocols carry the next seq without consuming it.
bool SequenceGraphBuilder::isDataPacket(const PacketRecord& p) {
  if (!p.seq) return false;
  if (!p.role) return p.length.value_or(0) > 0 || (p.flags.value_or(0) & (kTcpSyn | kTcpFin)) != 0;
  return static_cast<SegmentRole>(*p.role) != SegmentRole::Ack;
}

void SequenceGraphBuilder::addPacket(const PacketRecord& p) {
  if (p.conn == 0) return;
  const size_t own = static_cast<size_t>(p.dir), peer = 1 - own;
  if (isDataPacket(p)) {
    Space& s = m_spaces[own];
    const int64_t seq = s.unwrap.unwrap(static_cast<uint32_t>(*p.seq));
    s.seqOfFrame.emplace(p.frame, seq);
    s.sent.add(p.ts_ns, static_cast<double>(s.relative(seq)), p.frame);
  }
  if (p.ack) {
    // An ack is a number of the peer direction's seq space.
    Space& s = m_spaces[peer];
    const int64_t ack = s.unwrap.unwrap(static_cast<uint32_t>(*p.ack));
    s.acked.add(p.ts_ns, static_cast<double>(s.relative(ack)), p.frame);
  }
}

void SequenceGraphBuilder::finishRetransmissions(Space& s, DirectionTimeline& d) {
  SeriesBuilder retx;
  const int64_t base = s.base.value_or(0);
  for (RetxMark& m : d.retransmissions) {
    auto it = s.seqOfFrame.find(m.frame);
    // A copy in a later segment of its datagram has no row of its own: the
    // nearest unwrapping of its 32-bit seq to the base will do.
    const int64_t unwrapped = it != s.seqOfFrame.end()
                                  ? it->second
                                  : base + static_cast<int32_t>(m.raw_seq - static_cast<uint32_t>(base));
    m.seq = unwrapped - base;
    retx.add(m.ts_ns, static_cast<double>(m.seq), m.frame);
  }
  d.seqRetransmitted = retx.build();
}

void SequenceGraphBuilder::finish(std::array<DirectionTimeline, 2>& dirs) {
  for (size_t i = 0; i < 2; ++i) {
    Space& s = m_spaces[i];
    dirs[i].seqBase = s.base.value_or(0);
    dirs[i].seqSent = s.sent.build();
    dirs[i].seqAcked = s.acked.build();
    finishRetransmissions(s, dirs[i]);
    s.seqOfFrame.clear();
  }
}

}  // namespace rudp::gui
