#include "models/stalls_model.h"

#include <QStringList>
#include <algorithm>

#include "models/record_text.h"
#include "models/value_text.h"

namespace rudp::gui {

namespace {
struct Header {
  const char* title;
  const char* tip;
};
const Header kHeaders[StallsModel::ColumnCount] = {
    {"Conn", "Connection number."},
    {"Direction", "Direction whose data waited for an ack."},
    {"Start (s)", "When the wait began, seconds after the capture's first frame."},
    {"Duration (ms)", "How long no ack made progress, in ms."},
    {"Cause", "Why: retransmission timeout, peer silent (nothing came back), zero window, or acks lost."},
    {"Retx", "Copies the sender retransmitted during the stall."},
    {"Frames", "The data packet that started the wait – the packet that ended it."},
    {"Notes",
     "open: still unresolved when the capture ended; estimated: rebuilt on the remote "
     "sender's timeline (the capture is at the data's receiver)."},
};

QString framesText(const ana::StallEvent& s) {
  return s.last_frame ? QStringLiteral("%1–%2").arg(s.first_frame).arg(s.last_frame)
                      : QStringLiteral("%1–").arg(s.first_frame);
}

QString notesText(const ana::StallEvent& s) {
  QStringList notes;
  if (s.open) notes << QStringLiteral("open");
  if (s.estimated) notes << QStringLiteral("estimated");
  return notes.join(QStringLiteral(", "));
}
}  // namespace

std::vector<StallRow> stallRowsOf(const ConnectionRecord& r) {
  std::vector<StallRow> rows;
  for (const ana::DirectionMetrics& m : r.metrics.dir)
    for (const ana::StallEvent& s : m.stalls) rows.push_back({r.summary.id, s});
  std::stable_sort(rows.begin(), rows.end(),
                   [](const StallRow& a, const StallRow& b) { return a.stall.start_ns < b.stall.start_ns; });
  return rows;
}

StallsModel::StallsModel(QObject* parent) : QAbstractTableModel(parent) {}

void StallsModel::setStalls(std::vector<StallRow> stalls, int64_t captureStartNs) {
  beginResetModel();
  m_rows = std::move(stalls);
  m_captureStartNs = captureStartNs;
  endResetModel();
}

int StallsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StallsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant StallsModel::raw(const StallRow& s, int column) const {
  switch (column) {
    case Conn: return QVariant::fromValue<qlonglong>(s.conn);
    case Dir: return static_cast<int>(s.stall.dir);
    case Start: return relativeSeconds(s.stall.start_ns, m_captureStartNs);
    case Duration: return s.stall.duration_ms;
    case Cause: return stallCauseText(s.stall.cause);
    case Retransmissions: return s.stall.retransmissions;
    case Frames: return QVariant::fromValue<qulonglong>(s.stall.first_frame);
    case Notes: return notesText(s.stall);
  }
  return {};
}

QString StallsModel::text(const StallRow& s, int column) const {
  switch (column) {
    case Dir: return directionShortName(s.stall.dir);
    case Start: return relativeSecondsText(s.stall.start_ns, m_captureStartNs, 3);
    case Duration: return msText(s.stall.duration_ms);
    case Frames: return framesText(s.stall);
    default: return raw(s, column).toString();
  }
}

QVariant StallsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const StallRow& s = m_rows[index.row()];
  switch (role) {
    case Qt::DisplayRole: return text(s, index.column());
    case RawRole: return raw(s, index.column());
    case Qt::ToolTipRole: return QString::fromUtf8(kHeaders[index.column()].tip);
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(index.column() == Cause || index.column() == Notes
                                     ? Qt::AlignLeft | Qt::AlignVCenter
                                     : Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
  }
}

QVariant StallsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
    return QAbstractTableModel::headerData(section, orientation, role);
  if (role == Qt::DisplayRole) return QString::fromUtf8(kHeaders[section].title);
  if (role == Qt::ToolTipRole) return QString::fromUtf8(kHeaders[section].tip);
  return {};
}

}  // namespace rudp::gui
