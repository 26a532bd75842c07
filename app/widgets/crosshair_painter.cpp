#include "widgets/crosshair_painter.h"
#include "widgets/text_label.h"

#include <QFontMetrics>

namespace rudp::gui {

QString CrosshairPainter::valueText(Lane lane, double v) const {
  switch (lane) {
    case Lane::Rtt: return QStringLiteral("%1 ms").arg(v, 0, 'f', 1);
    case Lane::Sequence:
      if (s_.data && s_.data->gapsOnly()) return QStringLiteral("%1 ms").arg(v, 0, 'f', 1);
      return QStringLiteral("seq +%1").arg(static_cast<qint64>(std::llround(v)));
    case Lane::PacketRate: return formatSi(v) + QStringLiteral(" pkt/s");
    case Lane::ByteRate: return formatSi(v) + QStringLiteral("B/s");
    case Lane::Events: return QString();
  }
  return QString();
}

void CrosshairPainter::label(QPainter& p, const QRect& box, const QString& text) const {
  p.fillRect(box, s_.colours.text);
  p.setPen(s_.colours.plot);
  drawLabel(p, box, Qt::AlignCenter, text);
}

void CrosshairPainter::paint(QPainter& p, QPoint at) const {
  const QRect& plot = g_.layout.plot;
  if (!plot.contains(at)) return;
  p.save();
  p.setFont(s_.font);
  const QFontMetrics fm(s_.font);
  const double x = at.x() + 0.5;
  p.setPen(QPen(s_.colours.crosshair, 1, Qt::DashLine));
  p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  const QString time = formatTime(g_.time.time(x), s_.data ? s_.data->origin_ns : 0, g_.time.nsPerPixel());
  const int tw = fm.horizontalAdvance(time) + 10;
  label(p, QRect(at.x() - tw / 2, g_.layout.timeAxis.top() + 3, tw, fm.height() + 2), time);
  if (const auto lane = g_.layout.laneAt(at); lane && *lane != Lane::Events) {
    const QRect& r = g_.layout.lane(*lane);
    p.setPen(QPen(s_.colours.crosshair, 1, Qt::DashLine));
    p.drawLine(QPointF(r.left(), at.y() + 0.5), QPointF(r.right(), at.y() + 0.5));
    const QString v = valueText(*lane, g_.axis(*lane).value(at.y() + 0.5));
    const int vw = fm.horizontalAdvance(v) + 8;
    label(p, QRect(r.left() - vw - 2, at.y() - fm.height() / 2, vw, fm.height() + 2), v);
  }
  p.restore();
}

QString CrosshairPainter::text(QPoint at, const std::optional<TimelineHit>& hit) const {
  QStringList lines;
  lines << formatTime(g_.time.time(at.x() + 0.5), s_.data ? s_.data->origin_ns : 0, g_.time.nsPerPixel());
  if (const auto lane = g_.layout.laneAt(at); lane && *lane != Lane::Events)
    lines << QString::fromLatin1(laneTitle(*lane)) + QStringLiteral(": ") +
                 valueText(*lane, g_.axis(*lane).value(at.y() + 0.5));
  if (hit) lines << hit->text;
  return lines.join(QLatin1Char('\n'));
}

}  // namespace rudp::gui
