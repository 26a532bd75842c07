// Builds the tcptrace-style sequence graph of both directions from the
// packet index: data packets' seqs (sent), the retransmitted copies, and the
// peer's acks, all unwrapped into one 64-bit space per direction.
#pragma once
#include <array>
#include <unordered_map>
#include <vector>

#include "store/records.h"
#include "widgets/series_builder.h"
#include "widgets/timeline_data.h"

namespace rudp::gui {

class SequenceGraphBuilder {
 public:
  // Packets of one connection, in frame order.
  void addPacket(const PacketRecord& p);
  // Fills seqSent/seqRetransmitted/seqAcked and seqBase, and the seq of each
  // retransmission mark.
  void finish(std::array<DirectionTimeline, 2>& dirs);

  static bool isDataPacket(const PacketRecord& p);

 private:
  struct Space {
    SeqUnwrapper unwrap;
    std::optional<int64_t> base;
    SeriesBuilder sent, acked;
    std::unordered_map<uint64_t, int64_t> seqOfFrame;  // data frames -> unwrapped seq
    int64_t relative(int64_t unwrapped) {
      if (!base) base = unwrapped;
      return unwrapped - *base;
    }
  };
  void finishRetransmissions(Space& s, DirectionTimeline& d);
  std::array<Space, 2> m_spaces;
};

}  // namespace rudp::gui
