#include "models/value_text.h"

namespace rudp::gui {

QString missingText() { return QStringLiteral("–"); }

QVariant fromOptional(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }

QString countText(uint64_t v) { return QString::number(v); }

QString msText(double ms) { return QString::number(ms, 'f', 1); }

QString percentText(double percent) { return QString::number(percent, 'f', 2); }

double relativeSeconds(int64_t ts_ns, int64_t captureStartNs) {
  // Subtract in integers first: absolute ns do not fit a double exactly.
  return static_cast<double>(ts_ns - captureStartNs) / 1e9;
}

QString relativeSecondsText(int64_t ts_ns, int64_t captureStartNs, int decimals) {
  return QString::number(relativeSeconds(ts_ns, captureStartNs), 'f', decimals);
}

QString hexText(uint64_t v, int digits) {
  return QStringLiteral("0x") + QString::number(v, 16).rightJustified(digits, QLatin1Char('0'));
}

QString directionShortName(Direction d) {
  return d == Direction::ClientToServer ? QStringLiteral("c→s") : QStringLiteral("s→c");
}

QString directionLongName(Direction d) {
  return d == Direction::ClientToServer ? QStringLiteral("client → server")
                                        : QStringLiteral("server → client");
}

QString directionPairText(const QString& c2s, const QString& s2c) {
  return c2s + QStringLiteral(" / ") + s2c;
}

QString variantText(const QVariant& v, NumberKind kind) {
  if (!v.isValid()) return missingText();
  switch (kind) {
    case NumberKind::Count: return countText(v.toULongLong());
    case NumberKind::Milliseconds:
    case NumberKind::Decimal: return msText(v.toDouble());
    case NumberKind::Percent: return percentText(v.toDouble());
    case NumberKind::Seconds: return QString::number(v.toDouble(), 'f', 3);
    case NumberKind::Text: return v.toString();
  }
  return missingText();
}

}  // namespace rudp::gui
