#include "models/record_text.h"

#include <QObject>
#include <QStringList>
#include <iterator>

#include "core/contract.h"
#include "core/text_lines.h"
#include "models/value_text.h"
#include "store/schema.h"

namespace rudp::gui {

QString analysisWords(const char* name) {
  return QString::fromLatin1(name).replace(QLatin1Char('_'), QLatin1Char(' '));
}

QString stallCauseText(ana::StallCause c) { return analysisWords(ana::toString(c)); }

QString vantageText(ana::Vantage v) { return analysisWords(ana::toString(v)); }

QString protocolText(const ConnectionRecord& r) {
  const QString name = QString::fromStdString(r.summary.protocol);
  return r.has_analysis && r.metrics.timing_only ? QObject::tr("%1 (timing only)").arg(name) : name;
}

QString segmentRoleText(int64_t role) {
  static const char* const names[] = {"other",  "data",       "ack",  "connect",
                                      "accept", "disconnect", "ping", "pong"};
  if (role < 0 || role >= static_cast<int64_t>(std::size(names)))
    return QStringLiteral("unknown (%1)").arg(role);
  return QString::fromLatin1(names[role]);
}

QString reliabilityText(int64_t reliability) {
  switch (static_cast<Reliability>(reliability)) {
    case Reliability::Reliable: return QStringLiteral("reliable");
    case Reliability::Unreliable: return QStringLiteral("unreliable");
    case Reliability::Unsequenced: return QStringLiteral("unsequenced");
    case Reliability::FromField: break;  // resolved before storing; never stored
  }
  return QStringLiteral("unknown (%1)").arg(reliability);
}

QString packetStatusText(int status) {
  struct Bit {
    int bit;
    const char* word;
  };
  static const Bit bits[] = {{store::kDecodeError, "decode error"},
                             {store::kMalformed, "malformed"},
                             {store::kLuaError, "dissector error"},
                             {store::kIpFragment, "IP fragment"}};
  QStringList words;
  int known = 0;
  for (const Bit& b : bits) {
    known |= b.bit;
    if (status & b.bit) words << QString::fromLatin1(b.word);
  }
  if (status & ~known) words << QStringLiteral("unknown bits 0x%1").arg(status & ~known, 0, 16);
  return words.isEmpty() ? QStringLiteral("ok") : words.join(QStringLiteral(", "));
}

QString tcpFlagsText(int64_t flags) {
  static const char* const names[] = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR"};
  QStringList words;
  for (int i = 0; i < 8; ++i)
    if (flags & (int64_t{1} << i)) words << QString::fromLatin1(names[i]);
  return words.join(QStringLiteral(", "));
}

QString ackBitsText(int64_t bits) {
  const auto v = static_cast<uint32_t>(bits);
  QString binary = v ? QString::number(v, 2) : QStringLiteral("0");
  return QStringLiteral("%1 (…%2)").arg(hexText(v, 8), binary);
}

QString readWarningText(const CaptureInfo& capture) {
  QStringList lines;
  for (const std::string& line : splitLines(capture.warning)) lines << QString::fromStdString(line);
  QString text = lines.join(QStringLiteral("; "));
  if (capture.truncated)
    return QObject::tr("This capture is truncated: %1. Everything before the cut was analysed.").arg(text);
  return text;
}

}  // namespace rudp::gui
