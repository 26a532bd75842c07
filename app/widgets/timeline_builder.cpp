#include "widgets/timeline_builder.h"

#include <algorithm>
#include <map>

#include "widgets/series_builder.h"

namespace rudp::gui {

namespace {

void buildRtt(const std::vector<ana::RttEvent>& events, DirectionTimeline& out) {
  SeriesBuilder rtt, srtt, rto;
  for (const ana::RttEvent& e : events) {
    rtt.add(e.ts_ns, e.rtt_ms, e.frame);
    srtt.add(e.ts_ns, e.srtt_ms, e.frame);
    rto.add(e.ts_ns, e.rto_ms, e.frame);
  }
  out.rtt = rtt.build();
  out.srtt = srtt.build();
  out.rto = rto.build();
}

// Step series per second; a bucket without packets reads as zero, so each
// gap starts with an explicit zero, and so does the end of the traffic,
// unless packets after the last reported bucket (`lastPacketNs`, while a
// live capture runs) are in a bucket not reported yet: a zero there would be
// a drop that did not happen.
void buildRates(const std::vector<ana::RateEvent>& events, int64_t bucket, int64_t lastPacketNs,
                DirectionTimeline& out) {
  SeriesBuilder packets, bytes;
  const double perSecond = 1e9 / static_cast<double>(bucket);
  int64_t nextExpected = 0;
  bool any = false;
  for (const ana::RateEvent& e : events) {
    if (any && e.start_ns > nextExpected) {
      packets.add(nextExpected, 0);
      bytes.add(nextExpected, 0);
    }
    packets.add(e.start_ns, e.packets * perSecond);
    bytes.add(e.start_ns, static_cast<double>(e.bytes) * perSecond);
    nextExpected = e.start_ns + bucket;
    any = true;
  }
  if (any && lastPacketNs < nextExpected) {
    packets.add(nextExpected, 0);
    bytes.add(nextExpected, 0);
  }
  out.packetRate = packets.build();
  out.byteRate = bytes.build();
}

void buildRetransmissions(const std::vector<ana::RetransmissionEvent>& events, DirectionTimeline& out) {
  for (const ana::RetransmissionEvent& e : events) {
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

void buildLosses(const std::vector<ana::LossEvent>& events, const TimelineData& data,
                 DirectionTimeline& out) {
  for (const ana::LossEvent& e : events) {
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

}  // namespace

TimelineBuilder::TimelineBuilder(int64_t conn, int64_t origin_ns, int64_t first_ns, int64_t last_ns,
                                 std::vector<double> rttLimitsMs) {
  m_data.conn = conn;
  m_data.origin_ns = origin_ns;
  m_data.first_ns = first_ns;
  m_data.last_ns = last_ns;
  m_data.rttLimitsMs = std::move(rttLimitsMs);
}

void TimelineBuilder::setEvents(Direction d, DirectionEvents events) {
  DirectionTimeline& out = m_data.dir[static_cast<size_t>(d)];
  buildRtt(events.rtts, out);
  buildRates(events.rates, m_data.rate_bucket_ns, m_lastPacketNs, out);
  buildRetransmissions(events.retransmissions, out);
  out.stalls = std::move(events.stalls);
  m_losses[static_cast<size_t>(d)] = std::move(events.losses);
}

TimelineData TimelineBuilder::finish() {
  for (size_t i = 0; i < m_data.dir.size(); ++i) {
    buildLosses(m_losses[i], m_data, m_data.dir[i]);
    buildRecoveryBands(m_data, m_data.dir[i]);
  }
  return std::move(m_data);
}

}  // namespace rudp::gui
