#include "widgets/timeline_data.h"

#include <algorithm>

#include "store/store_reader.h"
#include "widgets/sequence_graph_builder.h"
#include "widgets/timeline_builder.h"

namespace rudp::gui {

std::optional<int64_t> TimelineData::timeOfFrame(uint64_t frame) const {
  auto it = std::lower_bound(frames.begin(), frames.end(), frame,
                             [](const FrameTime& f, uint64_t x) { return f.frame < x; });
  if (it == frames.end() || it->frame != frame) return std::nullopt;
  return it->ts_ns;
}

namespace {

void loadPackets(StoreReader& r, int64_t conn, TimelineData& data) {
  SequenceGraphBuilder seq;
  PacketQuery query;
  query.conn = conn;
  r.forEachPacket(query, [&](const PacketRecord& p) {
    data.frames.push_back({p.frame, p.ts_ns});
    seq.addPacket(p);
  });
  seq.finish(data.dir);
}

}  // namespace

TimelineData loadTimelineData(StoreReader& reader, int64_t conn) {
  const auto c = reader.connection(conn);
  TimelineBuilder builder(conn, reader.capture().first_ts_ns, c ? c->summary.first_ts_ns : 0,
                          c ? c->summary.last_ts_ns : 0, reader.settings().rtt_limits_ms);
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
    builder.setEvents(d, {reader.rttSamples(conn, d), reader.retransmissions(conn, d), reader.losses(conn, d),
                          reader.stalls(conn, d), reader.rates(conn, d)});
  loadPackets(reader, conn, builder.data());  // after the retransmissions: it numbers their seqs
  return builder.finish();
}

}  // namespace rudp::gui
