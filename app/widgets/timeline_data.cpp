#include "widgets/timeline_data.h"

#include <algorithm>

#include "store/store_reader.h"
#include "widgets/sequence_graph_builder.h"
#include "widgets/series_builder.h"
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
  std::array<SeriesBuilder, 2> gaps;
  std::array<std::optional<int64_t>, 2> last;
  PacketQuery query;
  query.conn = conn;
  r.forEachPacket(query, [&](const PacketRecord& p) {
    data.frames.push_back({p.frame, p.ts_ns});
    const size_t d = static_cast<size_t>(p.dir);
    if (!data.gapsOnly()) {
      seq.addPacket(p);
    } else if (last[d]) {
      gaps[d].add(p.ts_ns, static_cast<double>(p.ts_ns - *last[d]) / 1e6, p.frame);
    }
    last[d] = p.ts_ns;
  });
  seq.finish(data.dir);
  for (size_t d = 0; d < 2; ++d) data.dir[d].gaps = gaps[d].build();
}

}  // namespace

TimelineData loadTimelineData(StoreReader& reader, int64_t conn) {
  const auto c = reader.connection(conn);
  TimelineBuilder builder(conn, reader.capture().first_ts_ns, c ? c->summary.first_ts_ns : 0,
                          c ? c->summary.last_ts_ns : 0, reader.settings().rtt_limits_ms);
  builder.data().timing_only = c && c->has_analysis && c->metrics.timing_only;
  builder.data().encrypted = c && c->has_analysis && c->metrics.encrypted;
  for (size_t d = 0; d < 2; ++d) {
    builder.data().dir[d].seqFound = c && c->metrics.dir[d].seq_field.found();
    builder.data().dir[d].echoFound = c && c->metrics.timing_only && c->metrics.dir[d].rtt.samples > 0;
    if (c) builder.data().dir[d].rateChanges = c->metrics.dir[d].rate_changes;
  }
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    auto rtt = reader.rttSamples(conn, d);
    builder.data().dir[size_t(d)].spinRtt = std::any_of(
        rtt.begin(), rtt.end(), [](const ana::RttEvent& e) { return e.source == ana::RttSource::SpinBit; });
    builder.setEvents(d, {std::move(rtt), reader.retransmissions(conn, d), reader.losses(conn, d),
                          reader.stalls(conn, d), reader.rates(conn, d)});
  }
  loadPackets(reader, conn, builder.data());  // after the retransmissions: it numbers their seqs
  return builder.finish();
}

}  // namespace rudp::gui
