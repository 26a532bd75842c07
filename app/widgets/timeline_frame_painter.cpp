#include "widgets/timeline_frame_painter.h"
#include "widgets/serial_fill.h"
#include "widgets/text_label.h"

#include <QFontMetrics>
#include <cmath>

namespace rudp::gui {

QString directionText(Direction d) {
  return d == Direction::ClientToServer ? QStringLiteral("client \u2192 server")
                                        : QStringLiteral("server \u2192 client");
}

void TimelineFramePainter::paintBackground() {
  const QRect all(0, 0, g_.layout.header.width(), g_.layout.timeAxis.bottom() + 1);
  p_.fillRect(all, s_.colours.background);
}

void TimelineFramePainter::paintHeader() {
  const QRect& h = g_.layout.header;
  QFont bold = p_.font();
  bold.setBold(true);
  p_.save();
  p_.setFont(bold);
  p_.setPen(s_.colours.text);
  QString title =
      s_.data
          ? QStringLiteral("Connection %1 \u00b7 %2 data").arg(s_.data->conn).arg(directionText(s_.direction))
          : QStringLiteral("No connection");
  drawLabel(p_, h.adjusted(g_.layout.plot.left(), 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, title);
  p_.restore();
}

void TimelineFramePainter::paintLanes() {
  for (Lane lane : kAllLanes) {
    const QRect& r = g_.layout.lane(lane);
    p_.fillRect(r, s_.colours.plot);
    if (lane == Lane::Events)
      paintEventRowLabels();
    else if (lane != Lane::Rtt || !s_.rttUnknown())
      paintValueTicks(lane);
    outlineRect(p_, r, s_.colours.axis);
  }
}

// Horizontal grid lines are drawn on the bare plot colour only (the vertical
// ones, bands and data come later): opaque, they leave the same pixels.
QColor TimelineFramePainter::gridOnPlot() const { return blendedOver(s_.colours.grid, s_.colours.plot); }

void TimelineFramePainter::paintValueTicks(Lane lane) {
  const QRect& r = g_.layout.lane(lane);
  const ValueAxis& a = g_.axis(lane);
  const QFontMetrics fm(p_.font());
  const int count = std::max(2, r.height() / (fm.height() * 2));
  const QColor grid = gridOnPlot();
  for (const Tick& t : niceTicks(std::min(a.v0, a.v1), std::max(a.v0, a.v1), count)) {
    const double y = std::round(a.y(t.value)) + 0.5;
    if (y < r.top() || y > r.bottom()) continue;
    if (s_.has(Layer::Grid)) {
      p_.setPen(QPen(grid, 1));
      p_.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
    }
    p_.setPen(s_.colours.axis);
    p_.drawLine(QPointF(r.left() - 4, y), QPointF(r.left(), y));
    p_.setPen(s_.colours.dimText);
    const QRect label(0, static_cast<int>(y) - fm.height() / 2, r.left() - 7, fm.height());
    drawLabel(p_, label, Qt::AlignRight | Qt::AlignVCenter, t.label);
  }
}

void TimelineFramePainter::paintEventRowLabels() {
  const QRect& r = g_.layout.lane(Lane::Events);
  const QFontMetrics fm(p_.font());
  p_.setPen(s_.colours.dimText);
  if (s_.data && s_.data->encrypted) {
    drawLabel(
        p_, r.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
        QStringLiteral("No retransmissions or losses: QUIC encrypted, give its key log (Settings) to read "
                       "its headers; the bands are silences"));
    return;
  }
  if (s_.data && s_.data->timing_only && (!s_.dir() || s_.dir()->losses.empty())) {
    const bool counted = s_.dir() && s_.dir()->seqFound;
    drawLabel(p_, r.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
              counted
                  ? QStringLiteral("No losses: the counter found in the payload skipped no number")
                  : QStringLiteral("No retransmissions or losses without a dissector (no counter found in "
                                   "the payload): the bands are silences"));
    return;
  }
  for (auto [y, text] : {std::pair{g_.rows.retx, "retx"}, std::pair{g_.rows.loss, "loss"}}) {
    drawLabel(p_, QRect(0, static_cast<int>(y) - fm.height() / 2, r.left() - 7, fm.height()),
              Qt::AlignRight | Qt::AlignVCenter, QString::fromLatin1(text));
    p_.setPen(QPen(gridOnPlot(), 1, Qt::DotLine));
    p_.drawLine(QPointF(r.left(), std::round(y) + 0.5), QPointF(r.right(), std::round(y) + 0.5));
    p_.setPen(s_.colours.dimText);
  }
}

void TimelineFramePainter::paintTimeAxis() {
  const QRect& plot = g_.layout.plot;
  const QRect& axis = g_.layout.timeAxis;
  const QFontMetrics fm(p_.font());
  const int count = std::max(2, plot.width() / (fm.horizontalAdvance(QStringLiteral("000.000 s")) + 30));
  const int64_t origin = s_.data ? s_.data->origin_ns : 0;
  for (const Tick& t : timeTicks(s_.t0, s_.t1, origin, count)) {
    const double x = std::round(g_.time.x(static_cast<int64_t>(t.value))) + 0.5;
    if (x < plot.left() || x > plot.right()) continue;
    for (Lane lane : kAllLanes) {
      const QRect& r = g_.layout.lane(lane);
      if (s_.has(Layer::Grid)) drawColumn(p_, static_cast<int>(x), r.top() + 1, r.bottom(), s_.colours.grid);
    }
    p_.setPen(s_.colours.axis);
    p_.drawLine(QPointF(x, axis.top()), QPointF(x, axis.top() + 4));
    p_.setPen(s_.colours.dimText);
    const int w = fm.horizontalAdvance(t.label) + 8;
    drawLabel(p_, QRect(static_cast<int>(x) - w / 2, axis.top() + 5, w, fm.height()), Qt::AlignCenter,
              t.label);
  }
  p_.setPen(s_.colours.text);
  drawLabel(p_, QRect(axis.left(), axis.top() + 5 + fm.height(), axis.width(), fm.height() + 2),
            Qt::AlignCenter,
            s_.data && s_.data->origin_is_connection_start
                ? QStringLiteral("Time since the connection's first packet")
                : QStringLiteral("Time since the capture's first packet"));
}

void TimelineFramePainter::paintLaneTitle(Lane lane) {
  const QRect& r = g_.layout.lane(lane);
  QString text = QString::fromLatin1(laneTitle(lane));
  const bool timingOnly = s_.data && s_.data->timing_only;
  const bool encrypted = s_.data && s_.data->encrypted;
  if (timingOnly && lane == Lane::Sequence)
    text = QStringLiteral("Gap to the previous packet (ms) \u00b7 not decoded: timing only");
  else if (encrypted && lane == Lane::Sequence)
    text = QStringLiteral("Gap to the previous packet (ms) \u00b7 QUIC encrypted: timing only");
  else if (encrypted && lane == Lane::Rtt)
    text = s_.rttUnknown() ? QStringLiteral(
                                 "RTT \u00b7 none: QUIC encrypted, its handshake not captured and "
                                 "its endpoints not spinning the spin bit")
           : s_.dir() && s_.dir()->spinRtt
               ? text + QStringLiteral(" \u00b7 from the spin bit (QUIC encrypted)")
               : text + QStringLiteral(" \u00b7 the handshake's (QUIC encrypted)");
  else if (lane == Lane::Rtt && s_.rttInferred())
    text += QStringLiteral(" \u00b7 inferred: a counter and the peer's echo of it found in the payloads");
  else if (timingOnly && lane == Lane::Rtt)
    text = QStringLiteral(
        "RTT \u00b7 none: no dissector claims this flow and no echo of a counter was found in its payloads "
        "(timing only)");
  else if (lane == Lane::Sequence && s_.data && s_.data->sequence_after_stop)
    text += QStringLiteral(" \u00b7 drawn when the capture stops");
  else if (lane == Lane::Sequence && s_.dir())
    text += QStringLiteral("  base %1").arg(static_cast<uint32_t>(s_.dir()->seqBase));
  // Says whether values may be out of view: the automatic range holds all of
  // them (an outage spike included), a zoomed one may not.
  if (s_.manualY[static_cast<size_t>(lane)])
    text += QStringLiteral(" \u00b7 values zoomed (0 resets)");
  else if (lane == Lane::Rtt && !s_.rttUnknown())
    text += QStringLiteral(" \u00b7 all values (y, Ctrl+wheel zoom)");
  const QFontMetrics fm(p_.font());
  const QRect box(r.left() + 1, r.top() + 1, fm.horizontalAdvance(text) + 10, fm.height() + 2);
  QColor bg = s_.colours.plot;
  bg.setAlpha(225);
  p_.fillRect(box, bg);
  p_.setPen(s_.colours.text);
  drawLabel(p_, box, Qt::AlignCenter, text);
}

void TimelineFramePainter::paintLaneTitles() {
  for (Lane lane : kAllLanes)
    if (lane != Lane::Events) paintLaneTitle(lane);
}

void TimelineFramePainter::paintMarkedFrame() {
  if (!s_.markedFrame || !s_.data) return;
  const auto ts = s_.data->timeOfFrame(*s_.markedFrame);
  if (!ts || *ts < s_.t0 || *ts >= s_.t1) return;
  const QRect& plot = g_.layout.plot;
  const double x = std::round(g_.time.x(*ts)) + 0.5;
  p_.setPen(QPen(s_.colours.cursor, 2, Qt::DashLine));
  p_.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  const QFontMetrics fm(p_.font());
  const QString label = QStringLiteral("#%1").arg(*s_.markedFrame);
  const int w = fm.horizontalAdvance(label) + 8;
  const QRect box(static_cast<int>(x) - w / 2, plot.top() - fm.height() - 2, w, fm.height() + 2);
  p_.fillRect(box, s_.colours.cursor);
  p_.setPen(s_.colours.plot);
  drawLabel(p_, box, Qt::AlignCenter, label);
}

void TimelineFramePainter::paintEmptyMessage(const QString& text) {
  p_.setPen(s_.colours.dimText);
  drawLabel(p_, g_.layout.plot, Qt::AlignCenter, text);
}

}  // namespace rudp::gui
