#include "widgets/timeline_data.h"

#include <algorithm>
#include <map>

#include "store/store_reader.h"
#include "widgets/sequence_graph_builder.h"
#include "widgets/series_builder.h"

namespace rudp::gui {

std::optional<int64_t> TimelineData::timeOfFrame(uint64_t frame) const {
  auto it = std::lower_bound(frames.begin(), frames.end(), frame,
                             [](const FrameTime& f, uint64_t x) { return f.frame < x; });
  if (it == frames.end() || it->frame != frame) return std::nullopt;
  return it->ts_ns;
}

namespace {

void loadRtt(StoreReader& r, int64_t conn, Direction d, DirectionTimeline& out) {
  SeriesBuilder rtt, srtt, rto;
  for (const ana::RttEvent& e : r.rttSamples(conn, d)) {
    rtt.add(e.ts_ns, e.rtt_ms, e.frame);
    srtt.add(e.ts_ns, e.srtt_ms, e.frame);
    rto.add(e.ts_ns, e.rto_ms, e.frame);
  }
  out.rtt = rtt.build();
  out.srtt = srtt.build();
  out.rto = rto.build();
}

// Step series per second; a bucket without packets reads as zero, so each
// gap starts with an explicit zero.
void loadRates(StoreReader& r, int64_t conn, Direction d, int64_t bucket, DirectionTimeline& out) {
  SeriesBuilder packets, bytes;
  const double perSecond = 1e9 / static_cast<double>(bucket);
  int64_t nextExpected = 0;
  bool any = false;
  for (const ana::RateEvent& e : r.rates(conn, d)) {
    if (any && e.start_ns > nextExpected) {
      packets.add(nextExpected, 0);
      bytes.add(nextExpected, 0);
    }
    packets.add(e.start_ns, e.packets * perSecond);
    bytes.add(e.start_ns, static_cast<double>(e.bytes) * perSecond);
    nextExpected = e.start_ns + bucket;
    any = true;
  }
  if (any) {
    packets.add(nextExpected, 0);
    bytes.add(nextExpected, 0);
  }
  out.packetRate = packets.build();
  out.byteRate = bytes.build();
}

void loadRetransmissions(StoreReader& r, int64_t conn, Direction d, DirectionTimeline& out) {
  for (const ana::RetransmissionEvent& e : r.retransmissions(conn, d)) {
    RetxMark m;
    m.ts_ns = e.ts_ns;
    m.frame = e.frame;
    m.raw_seq = e.seq;
    m.cause = e.cause;
    m.original_frame = e.original_frame;
    m.attempt = e.attempt;
    m.since_previous_ms = e.since_previous_ms;
    out.retransmissions.push_back(m);
  }
  std::stable_sort(out.retransmissions.begin(), out.retransmissions.end(),
                   [](const RetxMark& a, const RetxMark& b) { return a.ts_ns < b.ts_ns; });
}

void loadLosses(StoreReader& r, int64_t conn, Direction d, const TimelineData& data, DirectionTimeline& out) {
  for (const ana::LossEvent& e : r.losses(conn, d)) {
    LossMark m;
    m.settled_ns = e.ts_ns;
    m.first_seq = e.first_seq;
    m.count = e.count;
    const auto lostAt = e.first_frame ? data.timeOfFrame(e.first_frame) : std::nullopt;
    m.ts_ns = lostAt.value_or(e.ts_ns);
    m.frame = lostAt ? e.first_frame : e.frame;
    out.losses.push_back(m);
  }
  std::stable_sort(out.losses.begin(), out.losses.end(),
                   [](const LossMark& a, const LossMark& b) { return a.ts_ns < b.ts_ns; });
}

// One band per retransmitted seq (its copies share the original frame). A
// spurious copy blocks nothing: the data had arrived.
void buildRecoveryBands(const TimelineData& data, DirectionTimeline& out) {
  std::map<std::pair<uint64_t, uint32_t>, RecoveryBand> bySeq;
  for (const RetxMark& m : out.retransmissions) {
    if (m.cause == ana::RetxCause::Spurious) continue;
    auto [it, fresh] = bySeq.try_emplace({m.original_frame, m.raw_seq});
    RecoveryBand& b = it->second;
    if (fresh) {
      const auto original = m.original_frame ? data.timeOfFrame(m.original_frame) : std::nullopt;
      const int64_t guess =
          m.since_previous_ms >= 0 ? m.ts_ns - static_cast<int64_t>(m.since_previous_ms * 1e6) : m.ts_ns;
      b.start_ns = original.value_or(guess);
      b.seq = m.raw_seq;
      b.original_frame = m.original_frame;
    }
    b.end_ns = std::max(b.end_ns, m.ts_ns);
    b.last_frame = m.frame;
    ++b.copies;
  }
  for (auto& [key, band] : bySeq) out.recoveries.push_back(band);
  std::sort(out.recoveries.begin(), out.recoveries.end(),
            [](const RecoveryBand& a, const RecoveryBand& b) { return a.start_ns < b.start_ns; });
  for (const RecoveryBand& b : out.recoveries) {
    if (!out.recoveryUnion.empty() && b.start_ns <= out.recoveryUnion.back().end_ns)
      out.recoveryUnion.back().end_ns = std::max(out.recoveryUnion.back().end_ns, b.end_ns);
    else
      out.recoveryUnion.push_back({b.start_ns, b.end_ns});
  }
}

void loadPackets(StoreReader& r, int64_t conn, TimelineData& data) {
  SequenceGraphBuilder seq;
  PacketQuery query;
  query.conn = conn;
  r.forEachPacket(query, [&](const PacketRecord& p) {
    data.frames.push_back({p.frame, p.ts_ns});
    seq.addPacket(p);
  });
  seq.finish(data.dir);  // after loadRetransmissions: it numbers their seqs too
}

}  // namespace

TimelineData loadTimelineData(StoreReader& reader, int64_t conn) {
  TimelineData data;
  data.conn = conn;
  data.origin_ns = reader.capture().first_ts_ns;
  data.rttLimitsMs = reader.settings().rtt_limits_ms;
  if (auto c = reader.connection(conn)) {
    data.first_ns = c->summary.first_ts_ns;
    data.last_ns = c->summary.last_ts_ns;
  }
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    DirectionTimeline& out = data.dir[static_cast<size_t>(d)];
    loadRtt(reader, conn, d, out);
    loadRates(reader, conn, d, data.rate_bucket_ns, out);
    loadRetransmissions(reader, conn, d, out);
    out.stalls = reader.stalls(conn, d);
  }
  loadPackets(reader, conn, data);
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    DirectionTimeline& out = data.dir[static_cast<size_t>(d)];
    loadLosses(reader, conn, d, data, out);
    buildRecoveryBands(data, out);
  }
  return data;
}

}  // namespace rudp::gui
