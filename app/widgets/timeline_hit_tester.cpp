#include "widgets/timeline_hit_tester.h"

#include <cmath>

#include "report/wording.h"
#include "widgets/band_painter.h"
#include "widgets/events_lane_painter.h"
#include "widgets/mark_shapes.h"

namespace rudp::gui {

const char* toString(HitKind k) {
  switch (k) {
    case HitKind::RttSample: return "rtt sample";
    case HitKind::RetransmissionTimeout: return "timeout retransmission";
    case HitKind::RetransmissionFast: return "fast retransmission";
    case HitKind::RetransmissionSpurious: return "spurious retransmission";
    case HitKind::Loss: return "loss";
    case HitKind::StallBand: return "stall";
    case HitKind::RecoveryBand: return "head-of-line recovery";
    case HitKind::RateChangeBand: return "rate change";
    case HitKind::SeqPoint: return "seq point";
  }
  return "";
}

namespace {
HitKind kindOf(ana::RetxCause c) {
  switch (c) {
    case ana::RetxCause::Timeout: return HitKind::RetransmissionTimeout;
    case ana::RetxCause::Fast: return HitKind::RetransmissionFast;
    case ana::RetxCause::Spurious: return HitKind::RetransmissionSpurious;
  }
  return HitKind::RetransmissionTimeout;
}
// Draw order of the causes (later = on top), for ties in distance.
int drawOrder(ana::RetxCause c) {
  return c == ana::RetxCause::Timeout ? 2 : c == ana::RetxCause::Spurious ? 1 : 0;
}
}  // namespace

QString TimelineHitTester::timeText(int64_t t) const { return formatTime(t, s_.data->origin_ns, 1000); }

std::optional<TimelineHit> TimelineHitTester::hitTest(QPoint point) const {
  const DirectionTimeline* d = s_.dir();
  const auto lane = g_.layout.laneAt(point);
  if (!d || !lane) return std::nullopt;
  const QPointF p(point.x() + 0.5, point.y() + 0.5);
  std::optional<TimelineHit> hit;
  switch (*lane) {
    case Lane::Events: hit = hitEvents(p, *d); break;
    case Lane::Rtt: hit = hitRtt(p, *d); break;
    case Lane::Sequence: hit = hitSequence(p, *d); break;
    default: break;
  }
  return hit ? hit : hitBands(p, *d);
}

std::optional<TimelineHit> TimelineHitTester::hitEvents(QPointF p, const DirectionTimeline& d) const {
  const double reach = kMarkSize / 2 + 2;
  if (s_.has(Layer::RetxMarks) && std::abs(p.y() - g_.rows.retx) <= reach) return hitRetransmission(p, d);
  if (s_.has(Layer::LossMarks) && std::abs(p.y() - g_.rows.loss) <= reach) return hitLoss(p, d);
  return std::nullopt;
}

std::optional<TimelineHit> TimelineHitTester::hitRetransmission(QPointF p, const DirectionTimeline& d) const {
  auto [b, e] =
      visibleMarks(d.retransmissions, g_.time.time(p.x() - kRadius - 1), g_.time.time(p.x() + kRadius + 1));
  const RetxMark* best = nullptr;
  double bestDx = kRadius + 0.5;
  for (size_t i = b; i < e; ++i) {
    const RetxMark& m = d.retransmissions[i];
    const double dx = std::abs(g_.time.column(m.ts_ns) + 0.5 - p.x());
    if (dx < bestDx || (best && dx == bestDx && drawOrder(m.cause) > drawOrder(best->cause))) {
      best = &m;
      bestDx = dx;
    }
  }
  if (!best) return std::nullopt;
  const QString text = QStringLiteral("%1 retransmission of seq %2 (attempt %3) at %4, frame %5")
                           .arg(QString::fromLatin1(labelOf(best->cause)))
                           .arg(best->raw_seq)
                           .arg(best->attempt)
                           .arg(timeText(best->ts_ns))
                           .arg(best->frame);
  return TimelineHit{
      kindOf(best->cause), Lane::Events, best->frame, best->ts_ns, static_cast<double>(best->seq), text};
}

std::optional<TimelineHit> TimelineHitTester::hitLoss(QPointF p, const DirectionTimeline& d) const {
  auto [b, e] = visibleMarks(d.losses, g_.time.time(p.x() - kRadius - 1), g_.time.time(p.x() + kRadius + 1));
  const LossMark* best = nullptr;
  double bestDx = kRadius + 0.5;
  for (size_t i = b; i < e; ++i) {
    const double dx = std::abs(g_.time.column(d.losses[i].ts_ns) + 0.5 - p.x());
    if (dx < bestDx) {
      best = &d.losses[i];
      bestDx = dx;
    }
  }
  if (!best) return std::nullopt;
  const QString text = QStringLiteral("loss of %1 seq%2 from %3 at %4, frame %5")
                           .arg(best->count)
                           .arg(best->count > 1 ? QStringLiteral("s") : QString())
                           .arg(best->first_seq)
                           .arg(timeText(best->ts_ns))
                           .arg(best->frame);
  return TimelineHit{HitKind::Loss, Lane::Events, best->frame, best->ts_ns, static_cast<double>(best->count),
                     text};
}

std::optional<std::pair<size_t, double>> TimelineHitTester::nearest(const LodSeries& series, Lane lane,
                                                                    QPointF p) const {
  auto [b, e] = series.indexRange(g_.time.time(p.x() - kRadius - 1), g_.time.time(p.x() + kRadius + 1));
  const ValueAxis& axis = g_.axis(lane);
  std::optional<std::pair<size_t, double>> best;
  for (size_t i = b; i < e; ++i) {
    const double dist = std::hypot(g_.time.x(series.time(i)) - p.x(), axis.y(series.value(i)) - p.y());
    if (dist <= kRadius && (!best || dist < best->second)) best = std::pair{i, dist};
  }
  return best;
}

std::optional<TimelineHit> TimelineHitTester::hitRtt(QPointF p, const DirectionTimeline& d) const {
  if (!s_.has(Layer::RttSamples)) return std::nullopt;
  const auto n = nearest(d.rtt, Lane::Rtt, p);
  if (!n) return std::nullopt;
  const size_t i = n->first;
  const QString text = QStringLiteral("RTT %1 ms (SRTT %2, RTO %3) at %4, frame %5")
                           .arg(d.rtt.value(i), 0, 'f', 2)
                           .arg(d.srtt.value(i), 0, 'f', 1)
                           .arg(d.rto.value(i), 0, 'f', 0)
                           .arg(timeText(d.rtt.time(i)))
                           .arg(d.rtt.frame(i));
  return TimelineHit{HitKind::RttSample, Lane::Rtt, d.rtt.frame(i), d.rtt.time(i), d.rtt.value(i), text};
}

std::optional<TimelineHit> TimelineHitTester::hitSequence(QPointF p, const DirectionTimeline& d) const {
  if (s_.data && s_.data->gapsOnly()) return hitGap(p, d);
  struct Candidate {
    const LodSeries* series;
    Layer layer;
    const char* what;
  };
  // In drawing order reversed: the one on top wins a tie.
  const Candidate candidates[] = {{&d.seqRetransmitted, Layer::SeqRetransmitted, "retransmitted"},
                                  {&d.seqSent, Layer::SeqSent, "sent"},
                                  {&d.seqAcked, Layer::SeqAcked, "ack of"}};
  std::optional<TimelineHit> best;
  double bestDist = kRadius + 1;
  for (const Candidate& c : candidates) {
    if (!s_.has(c.layer)) continue;
    const auto n = nearest(*c.series, Lane::Sequence, p);
    if (!n || n->second >= bestDist) continue;
    bestDist = n->second;
    const size_t i = n->first;
    const double rel = c.series->value(i);
    const auto raw = static_cast<uint32_t>(d.seqBase + static_cast<int64_t>(rel));
    const QString text = QStringLiteral("%1 seq %2 (relative %3) at %4, frame %5")
                             .arg(QString::fromLatin1(c.what))
                             .arg(raw)
                             .arg(static_cast<int64_t>(rel))
                             .arg(timeText(c.series->time(i)))
                             .arg(c.series->frame(i));
    best = TimelineHit{HitKind::SeqPoint, Lane::Sequence, c.series->frame(i), c.series->time(i), rel, text};
  }
  return best;
}

std::optional<TimelineHit> TimelineHitTester::hitGap(QPointF p, const DirectionTimeline& d) const {
  const auto n = nearest(d.gaps, Lane::Sequence, p);
  if (!n) return std::nullopt;
  const size_t i = n->first;
  const QString text = QStringLiteral("%1 ms after the previous packet, at %2, frame %3")
                           .arg(d.gaps.value(i), 0, 'f', 1)
                           .arg(timeText(d.gaps.time(i)))
                           .arg(d.gaps.frame(i));
  return TimelineHit{HitKind::SeqPoint, Lane::Sequence,  d.gaps.frame(i),
                     d.gaps.time(i),    d.gaps.value(i), text};
}

// "rate fell to 16.0 packets/s (usually 64) from 5.000 s to 8.000 s, frame 812",
// as the problems list words it.
TimelineHit TimelineHitTester::rateChangeHit(const ana::RateChangeEvent& e, Lane lane) const {
  const QString end = e.open ? QStringLiteral("the end") : timeText(e.end_ns);
  return TimelineHit{HitKind::RateChangeBand,
                     lane,
                     e.first_frame,
                     e.start_ns,
                     static_cast<double>(e.end_ns - e.start_ns) / 1e6,
                     QStringLiteral("%1 from %2 to %3, frame %4")
                         .arg(QString::fromStdString(report::rateChangeWords(e)))
                         .arg(timeText(e.start_ns))
                         .arg(end)
                         .arg(e.first_frame)};
}

std::optional<TimelineHit> TimelineHitTester::hitBands(QPointF p, const DirectionTimeline& d) const {
  const auto lane = g_.layout.laneAt(p.toPoint());
  auto inside = [&](int64_t start, int64_t end, int minWidth) {
    auto [l, r] = BandPainter::pixelSpan(g_.time, start, end, minWidth);
    return p.x() >= l && p.x() < r;
  };
  if (s_.has(Layer::StallBands))
    for (const ana::StallEvent& st : d.stalls)
      if (inside(st.start_ns, st.end_ns, BandPainter::kStallMinWidth))
        return TimelineHit{HitKind::StallBand,
                           *lane,
                           st.first_frame,
                           st.start_ns,
                           st.duration_ms,
                           QStringLiteral("stall of %1 ms (%2) from %3, frame %4")
                               .arg(st.duration_ms, 0, 'f', 1)
                               .arg(QString::fromLatin1(ana::toString(st.cause)))
                               .arg(timeText(st.start_ns))
                               .arg(st.first_frame)};
  if (lane == Lane::PacketRate || lane == Lane::ByteRate)
    for (const ana::RateChangeEvent& e : d.rateChanges)
      if (inside(e.start_ns, e.end_ns, BandPainter::kStallMinWidth)) return rateChangeHit(e, *lane);
  if (s_.has(Layer::RecoveryBands))
    for (const RecoveryBand& b : d.recoveries)
      if (inside(b.start_ns, b.end_ns, BandPainter::kRecoveryMinWidth))
        return TimelineHit{HitKind::RecoveryBand,
                           *lane,
                           b.original_frame,
                           b.start_ns,
                           static_cast<double>(b.end_ns - b.start_ns) / 1e6,
                           QStringLiteral("seq %1 recovered in %2 ms (%3 copies) from %4, frame %5")
                               .arg(b.seq)
                               .arg(static_cast<double>(b.end_ns - b.start_ns) / 1e6, 0, 'f', 1)
                               .arg(b.copies)
                               .arg(timeText(b.start_ns))
                               .arg(b.original_frame)};
  return std::nullopt;
}

}  // namespace rudp::gui
