#include "models/connection_columns.h"

#include <algorithm>

#include "models/connection_figures.h"
#include "models/record_text.h"

namespace rudp::gui {

namespace {
using Whole = std::function<QVariant(const ConnectionRecord&)>;
using PerDir = std::function<QVariant(const ConnectionRecord&, Direction)>;
using Metric = std::function<QVariant(const ana::DirectionMetrics&)>;

ConnectionColumn column(QString id, QString title, QString tip, NumberKind kind) {
  ConnectionColumn c;
  c.id = std::move(id);
  c.title = std::move(title);
  c.tip = std::move(tip);
  c.kind = kind;
  return c;
}

ConnectionColumn wholeColumn(QString id, QString title, QString tip, NumberKind kind, Whole f) {
  ConnectionColumn c = column(std::move(id), std::move(title), std::move(tip), kind);
  c.whole = std::move(f);
  return c;
}

ConnectionColumn dirColumn(QString id, QString title, QString tip, NumberKind kind, Combine how, PerDir f) {
  ConnectionColumn c = column(std::move(id), std::move(title), std::move(tip), kind);
  c.perDirection = std::move(f);
  c.combine = how;
  return c;
}

ConnectionColumn hidden(ConnectionColumn c) {
  c.hiddenByDefault = true;
  return c;
}

// A figure of the analysed direction's metrics; missing when not analysed.
PerDir metric(Metric f) {
  return [f = std::move(f)](const ConnectionRecord& r, Direction d) {
    const ana::DirectionMetrics* m = analysedDirection(r, d);
    return m ? f(*m) : QVariant();
  };
}

// A figure that needs the protocol's headers: missing for a flow analysed
// from timing alone (no dissector), never a 0 that was not measured.
PerDir decodedMetric(Metric f) {
  return [f = std::move(f)](const ConnectionRecord& r, Direction d) {
    const ana::DirectionMetrics* m = analysedDirection(r, d);
    return m && r.metrics.headersRead() ? f(*m) : QVariant();
  };
}

// An RTT figure; missing without samples.
PerDir rttMetric(double ana::RttStats::*field) {
  return metric([field](const ana::DirectionMetrics& m) {
    return m.rtt.samples ? QVariant(m.rtt.*field) : QVariant();
  });
}

QVariant count(uint64_t v) { return QVariant::fromValue<qulonglong>(v); }

// A figure known only once the analysis is complete: unknown ("–") while a
// live capture runs, never a 0 that was not measured.
Whole finalOnly(Whole f) {
  return [f = std::move(f)](const ConnectionRecord& r) { return r.in_progress ? QVariant() : f(r); };
}
PerDir finalOnly(PerDir f) {
  return [f = std::move(f)](const ConnectionRecord& r, Direction d) {
    return r.in_progress ? QVariant() : f(r, d);
  };
}

const QString kDirTip = QStringLiteral("\nShown client→server / server→client; sorted by the %1 of the two.");

QString dirTip(const QString& text, Combine how) {
  return text + kDirTip.arg(how == Combine::Sum ? "sum" : "larger");
}

std::vector<ConnectionColumn> identityColumns(int64_t captureStartNs) {
  return {
      wholeColumn("id", "#", "Connection number, in order of first packet.", NumberKind::Count,
                  [](const ConnectionRecord& r) { return QVariant::fromValue<qlonglong>(r.summary.id); }),
      wholeColumn("protocol", "Protocol",
                  "Dissector that decoded the connection; \"udp (timing only)\": no dissector claims it, so "
                  "only its timing is analysed (silences, ticks), not its loss, RTT or retransmissions.",
                  NumberKind::Text, [](const ConnectionRecord& r) { return protocolText(r); }),
      wholeColumn("client", "Client", "Client address:port (last one seen).", NumberKind::Text,
                  [](const ConnectionRecord& r) { return QString::fromStdString(r.summary.client); }),
      wholeColumn("server", "Server", "Server address:port.", NumberKind::Text,
                  [](const ConnectionRecord& r) { return QString::fromStdString(r.summary.server); }),
      wholeColumn("conn_id", "Conn ID", "Connection id from the protocol header, when it has one.",
                  NumberKind::Text,
                  [](const ConnectionRecord& r) {
                    return r.summary.has_conn_id ? QVariant(hexText(r.summary.conn_id, 8)) : QVariant();
                  }),
      wholeColumn("vantage", "Vantage", "Where the capture was taken, detected from the traffic.",
                  NumberKind::Text,
                  finalOnly([](const ConnectionRecord& r) { return vantageText(r.metrics.vantage); })),
      wholeColumn("badness", "Badness",
                  "Longest stall (ms) + 1000 × share of RTT samples above the first limit (0..1) + "
                  "20 × loss %, each the worse direction. Higher is worse.",
                  NumberKind::Decimal,
                  finalOnly([](const ConnectionRecord& r) { return QVariant(connectionBadness(r)); })),
      hidden(wholeColumn("start", "Start (s)", "First packet, seconds after the capture's first frame.",
                         NumberKind::Seconds,
                         [captureStartNs](const ConnectionRecord& r) {
                           return relativeSeconds(r.summary.first_ts_ns, captureStartNs);
                         })),
      wholeColumn("duration", "Duration (s)", "First to last packet, in seconds.", NumberKind::Seconds,
                  [](const ConnectionRecord& r) {
                    return relativeSeconds(r.summary.last_ts_ns, r.summary.first_ts_ns);
                  }),
  };
}

std::vector<ConnectionColumn> trafficColumns() {
  return {
      dirColumn("packets", "Packets", dirTip("Datagrams (TCP: segments) captured.", Combine::Sum),
                NumberKind::Count, Combine::Sum,
                [](const ConnectionRecord& r, Direction d) { return count(r.summary.dir[int(d)].packets); }),
      dirColumn("bytes", "Bytes", dirTip("Bytes on the wire (frame lengths).", Combine::Sum),
                NumberKind::Count, Combine::Sum,
                [](const ConnectionRecord& r, Direction d) { return count(r.summary.dir[int(d)].bytes); }),
      dirColumn(
          "icmp_errors", "ICMP errors",
          dirTip("ICMP and ICMPv6 errors quoting this direction's datagrams: port unreachable "
                 "(the peer went away), TTL exceeded, packet too big. Not counted in Packets; the "
                 "Statistics page lists them.",
                 Combine::Sum),
          NumberKind::Count, Combine::Sum,
          [](const ConnectionRecord& r, Direction d) { return count(r.summary.dir[int(d)].icmp_errors); }),
  };
}

// "~" where the samples are not full round trips (the capture sits at the
// data's receiver or mid-path), "*" where they are inferred from a counter
// and its echo found in the payloads, as the CLI's table marks them.
QString partialRttMark(const ConnectionRecord& r, Direction d) {
  const ana::DirectionMetrics* m = analysedDirection(r, d);
  if (!m || !m->rtt.samples) return QString();
  return QString(m->rtt.span != ana::RttSpan::RoundTrip ? QStringLiteral("~") : QString()) +
         (r.metrics.timing_only ? QStringLiteral("*") : QString());
}

ConnectionColumn rttColumn(const char* id, const char* title, double ana::RttStats::*field) {
  const QString tip = QStringLiteral(
      "RTT of the direction whose data was acknowledged, in ms. ~: not a full round trip (the capture "
      "sits at that data's receiver or mid-path; column \"RTT measures\" says which). *: a flow no "
      "dissector claims, from a counter and the other side's echo of it found in the payloads.");
  ConnectionColumn c = dirColumn(id, title, dirTip(tip, Combine::Max), NumberKind::Milliseconds, Combine::Max,
                                 rttMetric(field));
  c.mark = partialRttMark;
  return c;
}

std::vector<ConnectionColumn> rttColumns(const AnalysisSettings& settings) {
  std::vector<ConnectionColumn> cols{
      rttColumn("rtt_p50", "RTT p50 (ms)", &ana::RttStats::p50),
      rttColumn("rtt_p95", "RTT p95 (ms)", &ana::RttStats::p95),
      rttColumn("rtt_max", "RTT max (ms)", &ana::RttStats::max),
      hidden(dirColumn("rtt_span", "RTT measures",
                       "What the RTT samples measure at this capture point: the full round trip, "
                       "the receiver's ack delay, or the part of the path beyond the capture.",
                       NumberKind::Text, Combine::Max, metric([](const ana::DirectionMetrics& m) {
                         return m.rtt.samples ? QVariant(analysisWords(ana::toString(m.rtt.span)))
                                              : QVariant();
                       }))),
  };
  for (size_t i = 0; i < settings.rtt_limits_ms.size() && i < 3; ++i) {
    const QString limit = QString::number(settings.rtt_limits_ms[i]);
    auto c = dirColumn(
        QStringLiteral("over_limit_%1").arg(i + 1), QStringLiteral("> %1 ms (%)").arg(limit),
        dirTip(QStringLiteral("Share of RTT samples above %1 ms, in percent.").arg(limit), Combine::Max),
        NumberKind::Percent, Combine::Max,
        [i](const ConnectionRecord& r, Direction d) { return fromOptional(shareAbovePercent(r, d, i)); });
    c.hiddenByDefault = i > 0;
    cols.push_back(std::move(c));
  }
  return cols;
}

// A figure that needs the protocol's headers; for a flow no dissector claims
// it is known only where `field` was found in the payloads, and marked "*"
// (inferred).
ConnectionColumn inferableColumn(const char* id, const char* title, const QString& tip, NumberKind kind,
                                 Combine how, ana::InferredField ana::DirectionMetrics::*field,
                                 Metric value) {
  auto inferred = [field](const ConnectionRecord& r, Direction d) {
    const ana::DirectionMetrics* m = analysedDirection(r, d);
    return r.metrics.timing_only && m && (m->*field).found();
  };
  ConnectionColumn c = dirColumn(
      id, title, dirTip(tip, how), kind, how, [inferred, value](const ConnectionRecord& r, Direction d) {
        const ana::DirectionMetrics* m = analysedDirection(r, d);
        return m && (r.metrics.headersRead() || inferred(r, d)) ? value(*m) : QVariant();
      });
  c.mark = [inferred](const ConnectionRecord& r, Direction d) {
    return inferred(r, d) ? QStringLiteral("*") : QString();
  };
  return c;
}

ConnectionColumn lostColumn() {
  return inferableColumn("lost", "Lost",
                         "Seqs never delivered. *: a flow no dissector claims, its packets lost before the "
                         "capture inferred from a counter found in the payload.",
                         NumberKind::Count, Combine::Sum, &ana::DirectionMetrics::seq_field,
                         [](const ana::DirectionMetrics& m) { return count(m.lost); });
}

ConnectionColumn jitterColumn() {
  ConnectionColumn c = inferableColumn(
      "jitter", "Jitter (ms)",
      "RFC 3550 interarrival jitter, in ms. *: a flow no dissector claims, from a sender clock found in the "
      "payload.",
      NumberKind::Milliseconds, Combine::Max, &ana::DirectionMetrics::ts_field,
      [](const ana::DirectionMetrics& m) { return fromOptional(m.jitter_ms); });
  c.perDirection = finalOnly(c.perDirection);
  return c;
}

std::vector<ConnectionColumn> lossColumns() {
  return {
      dirColumn("loss", "Loss (%)",
                dirTip("Seqs never delivered per distinct seq captured: 100 × lost ÷ (data packets − "
                       "retransmissions − network duplicates).",
                       Combine::Max),
                NumberKind::Percent, Combine::Max, finalOnly([](const ConnectionRecord& r, Direction d) {
                  return r.metrics.headersRead() ? fromOptional(lossPercent(r, d)) : QVariant();
                })),
      lostColumn(),
      dirColumn("retx", "Retx", dirTip("Retransmitted copies, all kinds.", Combine::Sum), NumberKind::Count,
                Combine::Sum,
                decodedMetric([](const ana::DirectionMetrics& m) { return count(m.retransmissions); })),
      dirColumn(
          "retx_timeout", "Retx timeout", dirTip("Retransmissions after the sender's timer.", Combine::Sum),
          NumberKind::Count, Combine::Sum,
          decodedMetric([](const ana::DirectionMetrics& m) { return count(m.retransmissions_timeout); })),
      dirColumn("retx_fast", "Retx fast",
                dirTip("Retransmissions triggered by acks showing the seq missing.", Combine::Sum),
                NumberKind::Count, Combine::Sum,
                decodedMetric([](const ana::DirectionMetrics& m) { return count(m.retransmissions_fast); })),
      dirColumn("retx_spurious", "Retx spurious",
                dirTip("Retransmissions of seqs the sender already had an ack for.", Combine::Sum),
                NumberKind::Count, Combine::Sum, decodedMetric([](const ana::DirectionMetrics& m) {
                  return count(m.retransmissions_spurious);
                })),
  };
}

std::vector<ConnectionColumn> stallColumns() {
  return {
      dirColumn("stalls", "Stalls",
                dirTip("Waits for an ack longer than the stall threshold; for a flow not decoded, its "
                       "silences (freezes and one side quiet).",
                       Combine::Sum),
                NumberKind::Count, Combine::Sum,
                metric([](const ana::DirectionMetrics& m) { return count(m.stalls.size()); })),
      dirColumn("longest_stall", "Longest stall (ms)", dirTip("Longest stall, in ms.", Combine::Max),
                NumberKind::Milliseconds, Combine::Max,
                [](const ConnectionRecord& r, Direction d) { return fromOptional(longestStallMs(r, d)); }),
      jitterColumn(),
  };
}

void append(std::vector<ConnectionColumn>& to, std::vector<ConnectionColumn> more) {
  std::move(more.begin(), more.end(), std::back_inserter(to));
}
}  // namespace

std::vector<ConnectionColumn> connectionColumns(const AnalysisSettings& settings, int64_t captureStartNs) {
  std::vector<ConnectionColumn> cols = identityColumns(captureStartNs);
  append(cols, trafficColumns());
  append(cols, rttColumns(settings));
  append(cols, lossColumns());
  append(cols, stallColumns());
  return cols;
}

QVariant combineDirections(const QVariant& c2s, const QVariant& s2c, Combine how) {
  if (!c2s.isValid()) return s2c;
  if (!s2c.isValid()) return c2s;
  if (c2s.typeId() == QMetaType::QString) return c2s.toString() + QLatin1Char('/') + s2c.toString();
  if (how == Combine::Max) return std::max(c2s.toDouble(), s2c.toDouble());
  if (c2s.typeId() == QMetaType::ULongLong) return count(c2s.toULongLong() + s2c.toULongLong());
  return c2s.toDouble() + s2c.toDouble();
}

}  // namespace rudp::gui
