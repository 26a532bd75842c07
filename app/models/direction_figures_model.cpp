#include "models/direction_figures_model.h"

#include <algorithm>

#include "models/record_text.h"

namespace rudp::gui {

namespace {
using Figure = std::function<QVariant(const DirectionStatistics&)>;

struct FigureSpec {
  const char* name;
  const char* tip;
  NumberKind kind;
  Figure value;
};

QVariant count(uint64_t v) { return QVariant::fromValue<qulonglong>(v); }

// An RTT figure; none without samples.
Figure rtt(double ana::RttStats::*field) {
  return
      [field](const DirectionStatistics& d) { return d.rtt.samples ? QVariant(d.rtt.*field) : QVariant(); };
}

// A packet-spacing figure; none without samples.
Figure gap(double ana::GapStats::*field) {
  return
      [field](const DirectionStatistics& d) { return d.gaps.samples ? QVariant(d.gaps.*field) : QVariant(); };
}

// A figure that needs the protocol's headers: unknown ("–") for a flow
// analysed from timing alone, not 0, unless the field it comes from was
// found in the payloads (`inferred`).
template <class F>
std::function<QVariant(const DirectionStatistics&)> decoded(F f,
                                                            bool (*inferred)(const DirectionStatistics&)) {
  return [f, inferred](const DirectionStatistics& d) {
    return d.headers_read || inferred(d) ? f(d) : QVariant();
  };
}
bool echoed(const DirectionStatistics& d) { return d.rtt.samples > 0; }
bool counted(const DirectionStatistics& d) { return d.counter_found; }
bool clocked(const DirectionStatistics& d) { return d.clock_found; }

// "none", or how many and the first: "2, first frame 57: port unreachable from 10.0.0.2".
QVariant icmpErrors(const DirectionStatistics& d) {
  if (d.icmp_errors.empty()) return QObject::tr("none");
  const IcmpErrorRecord& e = d.icmp_errors.front();
  return QObject::tr("%L1, first frame %2: %3 from %4")
      .arg(qulonglong(d.icmp_errors.size()))
      .arg(qulonglong(e.frame))
      .arg(QString::fromStdString(e.description), QString::fromStdString(e.reporter));
}

const std::vector<FigureSpec>& figureSpecs() {
  static const std::vector<FigureSpec> specs{
      {"RTT samples", "RTT samples of this direction's data.", NumberKind::Count,
       decoded([](const DirectionStatistics& d) { return count(d.rtt.samples); }, echoed)},
      {"RTT measures", "What the samples measure at this capture point.", NumberKind::Text,
       [](const DirectionStatistics& d) {
         return d.rtt.samples ? QVariant(analysisWords(ana::toString(d.rtt.span))) : QVariant();
       }},
      {"RTT min (ms)", "Smallest RTT sample.", NumberKind::Milliseconds, rtt(&ana::RttStats::min)},
      {"RTT p50 (ms)", "Median RTT.", NumberKind::Milliseconds, rtt(&ana::RttStats::p50)},
      {"RTT p95 (ms)", "95th percentile RTT.", NumberKind::Milliseconds, rtt(&ana::RttStats::p95)},
      {"RTT p99 (ms)", "99th percentile RTT.", NumberKind::Milliseconds, rtt(&ana::RttStats::p99)},
      {"RTT max (ms)", "Largest RTT sample.", NumberKind::Milliseconds, rtt(&ana::RttStats::max)},
      {"RTT mean (ms)", "Mean RTT.", NumberKind::Milliseconds, rtt(&ana::RttStats::mean)},
      {"Jitter (ms)", "RFC 3550 interarrival jitter: smoothed variation of the packet spacing.",
       NumberKind::Milliseconds,
       decoded([](const DirectionStatistics& d) { return fromOptional(d.jitter_ms); }, clocked)},
      {"Spacing p50 (ms)", "Median time between consecutive packets.", NumberKind::Milliseconds,
       gap(&ana::GapStats::p50)},
      {"Spacing p95 (ms)", "95th percentile time between consecutive packets.", NumberKind::Milliseconds,
       gap(&ana::GapStats::p95)},
      {"Spacing p99 (ms)", "99th percentile time between consecutive packets.", NumberKind::Milliseconds,
       gap(&ana::GapStats::p99)},
      {"Spacing max (ms)", "Longest time between consecutive packets.", NumberKind::Milliseconds,
       gap(&ana::GapStats::max)},
      {"Tick rate (Hz)", "Detected send rate; none when the traffic has no steady tick.", NumberKind::Decimal,
       [](const DirectionStatistics& d) {
         return d.gaps.tick_hz > 0 ? QVariant(d.gaps.tick_hz) : QVariant();
       }},
      {"Lost seqs", "Seqs never delivered.", NumberKind::Count,
       decoded([](const DirectionStatistics& d) { return count(d.lost); }, counted)},
      {"ICMP errors",
       "ICMP and ICMPv6 errors quoting this direction's datagrams (port unreachable: the peer went away); "
       "the first one's frame and kind.",
       NumberKind::Text, icmpErrors},
      {"Mean loss burst (packets)", "Mean length of the runs of consecutive lost seqs.", NumberKind::Decimal,
       [](const DirectionStatistics& d) {
         return d.loss_bursts.empty() ? QVariant() : QVariant(d.mean_loss_burst);
       }},
  };
  return specs;
}
}  // namespace

DirectionFiguresModel::DirectionFiguresModel(QObject* parent) : QAbstractTableModel(parent) {}

void DirectionFiguresModel::setStatistics(const StatisticsData& data) {
  beginResetModel();
  m_rows.clear();
  if (data.conn != 0)
    for (const FigureSpec& s : figureSpecs()) {
      Row r{QString::fromUtf8(s.name), QString::fromUtf8(s.tip), s.kind, {}};
      for (int d = 0; d < 2; ++d)
        if (data.dir[d].analysed) r.value[d] = s.value(data.dir[d]);
      m_rows.push_back(std::move(r));
    }
  endResetModel();
}

int DirectionFiguresModel::rowOfFigure(const QString& name) const {
  const auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.name == name; });
  return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

int DirectionFiguresModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int DirectionFiguresModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant DirectionFiguresModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& r = m_rows[index.row()];
  const bool name = index.column() == Figure;
  switch (role) {
    case Qt::DisplayRole: return name ? r.name : variantText(r.value[index.column() - 1], r.kind);
    case RawRole: return name ? QVariant(r.name) : r.value[index.column() - 1];
    case Qt::ToolTipRole:  // a text figure may be wider than its column: the whole of it, then what it is
      return name || r.kind != NumberKind::Text
                 ? r.tip
                 : variantText(r.value[index.column() - 1], r.kind) + "\n" + r.tip;
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(name ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
  }
}

QVariant DirectionFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
  static const char* const titles[ColumnCount] = {"Figure", "Client → server", "Server → client"};
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
    return QAbstractTableModel::headerData(section, orientation, role);
  return QString::fromUtf8(titles[section]);
}

}  // namespace rudp::gui
