#include "widgets/timeline_scene.h"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

namespace rudp::gui {

EventRows EventRows::of(const QRect& lane) {
  // On pixel centres, so marks are symmetric and crisp.
  auto centre = [](double y) { return std::floor(y) + 0.5; };
  return {centre(lane.top() + lane.height() * 0.5), centre(lane.top() + lane.height() * 0.8)};
}

TimelineGeometry TimelineGeometry::compute(const TimelineScene& scene, QSize size) {
  TimelineGeometry g;
  g.layout = TimelineLayout::compute(size, QFontMetrics(scene.font));
  g.time = TimeAxis{scene.t0, std::max(scene.t1, scene.t0 + 1), static_cast<double>(g.layout.plot.left()),
                    static_cast<double>(g.layout.plot.width())};
  for (Lane lane : kAllLanes) {
    const QRect& r = g.layout.lane(lane);
    const ValueSpan v = effectiveValueRange(scene, lane);
    // A few pixels of air so marks at the extremes are not cut.
    g.values[static_cast<size_t>(lane)] =
        ValueAxis{v.min, v.max, static_cast<double>(r.top() + 4), static_cast<double>(r.height() - 8)};
  }
  g.rows = EventRows::of(g.layout.lane(Lane::Events));
  return g;
}

namespace {
// What a series shows in [t0, t1): its visible points, and for the lines
// the values they carry in from either side (a step holds the value before,
// a line runs between the points on either side).
enum class Shown { Points, Steps, Line };
void includeVisible(ValueSpan& s, const LodSeries& series, int64_t t0, int64_t t1, Shown shown) {
  if (series.empty()) return;
  auto [b, e] = series.indexRange(t0, t1);
  if (shown != Shown::Points && b > 0) --b;
  if (shown == Shown::Line && e < series.size()) ++e;
  s.include(series.span(b, e));
}

ValueSpan fromZero(ValueSpan s, double fallbackTop) {
  const double top = s.empty() || s.max <= 0 ? fallbackTop : s.max;
  return {0, niceCeil(top * 1.05)};
}

ValueSpan rttRange(const TimelineScene& sc, const DirectionTimeline& d) {
  ValueSpan s = ValueSpan::none();
  if (sc.has(Layer::RttSamples)) includeVisible(s, d.rtt, sc.t0, sc.t1, Shown::Points);
  if (sc.has(Layer::Srtt)) includeVisible(s, d.srtt, sc.t0, sc.t1, Shown::Line);
  if (sc.has(Layer::Rto)) includeVisible(s, d.rto, sc.t0, sc.t1, Shown::Steps);
  // A limit line close above the data is worth the room it takes.
  if (sc.has(Layer::LimitLines))
    for (double limit : sc.limitLinesMs)
      if (s.empty() || limit <= s.max * 1.5) s.include(limit);
  return fromZero(s, 100);
}

ValueSpan sequenceRange(const TimelineScene& sc, const DirectionTimeline& d) {
  ValueSpan s = ValueSpan::none();
  if (sc.data && sc.data->gapsOnly()) {
    includeVisible(s, d.gaps, sc.t0, sc.t1, Shown::Points);
    return fromZero(s, 10);
  }
  if (sc.has(Layer::SeqSent)) includeVisible(s, d.seqSent, sc.t0, sc.t1, Shown::Points);
  if (sc.has(Layer::SeqAcked)) includeVisible(s, d.seqAcked, sc.t0, sc.t1, Shown::Steps);
  if (sc.has(Layer::SeqRetransmitted)) includeVisible(s, d.seqRetransmitted, sc.t0, sc.t1, Shown::Points);
  if (s.empty()) return {0, 1};
  const double pad = std::max((s.max - s.min) * 0.04, 1.0);
  return {s.min - pad, s.max + pad};
}

ValueSpan rateRange(const TimelineScene& sc, const LodSeries& series) {
  ValueSpan s = ValueSpan::none();
  includeVisible(s, series, sc.t0, sc.t1, Shown::Steps);
  return fromZero(s, 1);
}
}  // namespace

ValueSpan autoValueRange(const TimelineScene& scene, Lane lane) {
  const DirectionTimeline* d = scene.dir();
  if (!d) return {0, 1};
  switch (lane) {
    case Lane::Rtt: return rttRange(scene, *d);
    case Lane::Events: return {0, 1};
    case Lane::Sequence: return sequenceRange(scene, *d);
    case Lane::PacketRate: return rateRange(scene, d->packetRate);
    case Lane::ByteRate: return rateRange(scene, d->byteRate);
  }
  return {0, 1};
}

ValueSpan effectiveValueRange(const TimelineScene& scene, Lane lane) {
  const auto& manual = scene.manualY[static_cast<size_t>(lane)];
  return manual ? *manual : autoValueRange(scene, lane);
}

}  // namespace rudp::gui
