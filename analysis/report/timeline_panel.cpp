#include "report/timeline_panel.h"

#include <algorithm>

#include "report/decimate.h"
#include "report/loss_span.h"
#include "report/wording.h"
#include "store/store_reader.h"

namespace rudp::report {

namespace {

constexpr int kYTicks = 5;
constexpr double kMarkSize = 7;

const char* retxColour(ana::RetxCause c) {
  switch (c) {
    case ana::RetxCause::Timeout: return TimelineStyle::kTimeout;
    case ana::RetxCause::Fast: return TimelineStyle::kFast;
    case ana::RetxCause::Spurious: return TimelineStyle::kSpurious;
  }
  return TimelineStyle::kTimeout;
}

MarkShape retxShape(ana::RetxCause c) {
  switch (c) {
    case ana::RetxCause::Timeout: return TimelineStyle::kTimeoutShape;
    case ana::RetxCause::Fast: return TimelineStyle::kFastShape;
    case ana::RetxCause::Spurious: return TimelineStyle::kSpuriousShape;
  }
  return TimelineStyle::kTimeoutShape;
}

// Points of one series in pixels, kept inside a band around the plot so a
// huge RTO stays a finite number (the clip hides what is outside). With
// `steps` a value holds until the next sample (SRTT and RTO change only
// when a sample arrives; a slope across a silent gap would invent values).
template <class Value>
std::vector<Point> series(const std::vector<ana::RttEvent>& samples, const PlotScale& x, const PlotScale& y,
                          int64_t startNs, bool steps, Value value) {
  std::vector<Point> pts;
  pts.reserve(samples.size() * (steps ? 2 : 1));
  const double top = y.px(y.hi()) - 50, bottom = y.px(y.lo()) + 50;
  for (const auto& e : samples) {
    const Point p{x.px(secondsSince(e.ts_ns, startNs)), std::clamp(y.px(value(e)), top, bottom)};
    if (steps && !pts.empty()) pts.push_back({p.x, pts.back().y});
    pts.push_back(p);
  }
  return pts;
}

}  // namespace

const char* TimelineStyle::limitColour(size_t index, size_t count) {
  static constexpr const char* kGraded[] = {"#c9a100", "#e07000", "#c00000"};
  const size_t fromTop = count - 1 - std::min(index, count - 1);
  return kGraded[fromTop >= 3 ? 0 : 2 - fromTop];
}

TimelinePanel::TimelinePanel(StoreReader& reader, const ConnectionRecord& conn, Direction dir,
                             int64_t captureStartNs, const std::vector<double>& rttLimitsMs)
    : reader_(reader),
      conn_(conn),
      dir_(dir),
      start_ns_(captureStartNs),
      limits_(rttLimitsMs),
      samples_(reader.rttSamples(conn.summary.id, dir)) {}

double TimelinePanel::seconds(int64_t ns) const { return secondsSince(ns, start_ns_); }

bool TimelinePanel::showsLimits() const {
  // The limits are round-trip budgets: an ack delay or a part of the path
  // measured against them would mislead.
  const ana::RttSpan span = conn_.metrics.dir[static_cast<size_t>(dir_)].rtt.span;
  return !limits_.empty() && (span == ana::RttSpan::RoundTrip || span == ana::RttSpan::Unknown);
}

double TimelinePanel::yMaxMs() const {
  // Every limit and every sample in view, but one huge outlier must not
  // flatten the rest: past ten times the highest limit samples are pinned
  // to the top edge.
  const double topLimit = showsLimits() ? *std::max_element(limits_.begin(), limits_.end()) : 0;
  const double floor = showsLimits() ? topLimit * 1.15 : 10;
  const double cap = showsLimits() ? topLimit * 10 : 1e9;
  double maxSample = 0;
  for (const auto& e : samples_) maxSample = std::max(maxSample, e.rtt_ms);
  return std::max(floor, std::min(maxSample * 1.05, cap));
}

void TimelinePanel::draw(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g,
                         const std::string& clipId) {
  const PlotScale y(0, yMaxMs(), g.bottom(), g.plot_top);
  const ana::RttStats& rtt = conn_.metrics.dir[static_cast<size_t>(dir_)].rtt;
  svg.beginGroup(dir_ == Direction::ClientToServer ? "panel c2s" : "panel s2c");
  // A flow no dissector claims has RTT samples only from an echo found in its
  // payloads: without one the panel says why, instead of drawing empty axes.
  const bool timingOnly = conn_.metrics.timing_only, noRtt = timingOnly && samples_.empty();
  std::string title = std::string(directionWords(dir_)) + " data: ";
  if (noRtt)
    title +=
        "no RTT (not decoded: no dissector claims this flow, and no echo of a counter was found in "
        "its payloads)";
  else
    title += std::string(rttSpanWords(rtt.span)) + " (ms), " + std::to_string(samples_.size()) + " samples" +
             (timingOnly ? ", inferred from the peer's echo of a counter found in the payloads" : "");
  svg.text(g.left, g.top + 11, title, {11, "#222", "start", "panel-title", true});
  drawStalls(svg, x, g);
  if (!noRtt) drawGridAndLimits(svg, y, g);
  drawRtt(svg, x, y, clipId);
  drawRetransmissions(svg, x, g);
  drawLosses(svg, x, g);
  svg.line(g.left, g.plot_top, g.left + g.width, g.plot_top, {"none", "#dddddd", 1});
  svg.rect(g.left, g.strip_top, g.width, g.bottom() - g.strip_top, {"none", "#bbbbbb", 1});
  svg.endGroup();
}

void TimelinePanel::drawStalls(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g) {
  for (const auto& s : conn_.metrics.dir[static_cast<size_t>(dir_)].stalls) {
    const double x0 = std::max(x.px(seconds(s.start_ns)), g.left);
    const double x1 = std::min(x.px(seconds(s.end_ns)), g.left + g.width);
    Paint band{TimelineStyle::kStall, "none", 1, {}, s.estimated ? 0.3 : 0.5};
    if (s.estimated) band.stroke = TimelineStyle::kStall, band.dash = "3 2";
    const std::string title = durationText(s.duration_ms) + " stall " + secondsAt(s.start_ns, start_ns_) +
                              " \u2013 " + secondsAt(s.end_ns, start_ns_) + " (" + ana::toString(s.cause) +
                              (s.estimated ? ", estimated)" : ")");
    svg.rect(x0, g.strip_top, std::max(x1 - x0, 1.0), g.bottom() - g.strip_top, band, "stall", title);
  }
}

void TimelinePanel::drawGridAndLimits(SvgWriter& svg, const PlotScale& y, const PanelGeometry& g) {
  for (double v : y.ticks(kYTicks)) {
    svg.line(g.left, y.px(v), g.left + g.width, y.px(v), {"none", "#eeeeee", 1});
    svg.text(g.left - 4, y.px(v) + 4, y.tickLabel(v, kYTicks), {10, "#444", "end", "ytick"});
  }
  if (!showsLimits()) return;
  for (size_t i = 0; i < limits_.size(); ++i) {
    if (limits_[i] > y.hi()) continue;
    const char* colour = TimelineStyle::limitColour(i, limits_.size());
    const double ly = y.px(limits_[i]);
    svg.line(g.left, ly, g.left + g.width, ly, {"none", colour, 1, "6 3"}, "limit");
    // Staggered, so close limits on a tall scale do not print over each other.
    const double lx = g.left + g.width - 2 - 48 * static_cast<double>(limits_.size() - 1 - i);
    svg.text(lx, ly - 2, format("%g ms", limits_[i]), {9, colour, "end", "limit-label"});
  }
}

void TimelinePanel::drawRtt(SvgWriter& svg, const PlotScale& x, const PlotScale& y,
                            const std::string& clipId) {
  if (samples_.empty()) return;
  svg.beginGroup("rtt", clipId);
  auto rto = series(samples_, x, y, start_ns_, true, [](const ana::RttEvent& e) { return e.rto_ms; });
  svg.polyline(minMaxPerColumn(rto, true), {"none", TimelineStyle::kRto, 1, "4 3"}, "rto");
  auto srtt = series(samples_, x, y, start_ns_, true, [](const ana::RttEvent& e) { return e.srtt_ms; });
  svg.polyline(minMaxPerColumn(srtt, true), {"none", TimelineStyle::kSrtt, 1.3}, "srtt");
  auto dots = series(samples_, x, y, start_ns_, false, [](const ana::RttEvent& e) { return e.rtt_ms; });
  svg.beginGroup("samples");
  for (const Point& p : minMaxPerColumn(dots, false)) svg.circle(p.x, p.y, 1.6, {TimelineStyle::kSample});
  svg.endGroup();
  svg.endGroup();
}

void TimelinePanel::drawRetransmissions(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g) {
  // Every mark is drawn, however many: a timeout is never decimated away.
  // Timeouts go last, so no fast or spurious mark hides one.
  svg.beginGroup("retransmissions");
  const double cy = g.strip_top + 8;
  const std::vector<ana::RetransmissionEvent> all = reader_.retransmissions(conn_.summary.id, dir_);
  for (ana::RetxCause cause : {ana::RetxCause::Fast, ana::RetxCause::Spurious, ana::RetxCause::Timeout}) {
    for (const auto& r : all) {
      if (r.cause != cause) continue;
      const std::string title = format("frame %llu at ", static_cast<unsigned long long>(r.frame)) +
                                secondsAt(r.ts_ns, start_ns_) +
                                format(": seq %u attempt %u, ", r.seq, r.attempt) + ana::toString(r.cause);
      svg.mark(retxShape(r.cause), x.px(seconds(r.ts_ns)), cy, kMarkSize, {retxColour(r.cause)},
               std::string("retx ") + ana::toString(r.cause), title);
    }
  }
  svg.endGroup();
}

void TimelinePanel::drawLosses(SvgWriter& svg, const PlotScale& x, const PanelGeometry& g) {
  svg.beginGroup("losses");
  const double cy = g.strip_top + 20;
  const double gapMs = packetGapMs(conn_.metrics.dir[static_cast<size_t>(dir_)]);
  for (const auto& ev : reader_.losses(conn_.summary.id, dir_)) {
    const LossSpan span = lossSpan(reader_, ev, gapMs);
    const std::string title = format("%u lost from seq %u (frame %llu) at ", ev.count, ev.first_seq,
                                     static_cast<unsigned long long>(span.frame)) +
                              secondsAt(span.start_ns, start_ns_);
    svg.mark(TimelineStyle::kLossShape, x.px(seconds(span.start_ns)), cy, kMarkSize,
             {"none", TimelineStyle::kLoss, 1.5}, "loss", title);
  }
  svg.endGroup();
}

}  // namespace rudp::report
