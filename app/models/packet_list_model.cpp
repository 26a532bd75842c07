#include "models/packet_list_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

#include "core/error.h"
#include "store/store_reader.h"

namespace rudp::gui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

PacketListModel::PacketListModel(QObject* parent) : QAbstractTableModel(parent) {}

PacketListModel::~PacketListModel() = default;

void PacketListModel::open(const QString& dbPath, const QString& capture,
                           const DissectorOptions& dissectors) {
  beginResetModel();
  forget();
  m_dbPath = dbPath;
  m_capture = capture;
  try {
    m_reader = std::make_unique<StoreReader>(dbPath.toStdString());
    const CaptureInfo info = m_reader->capture();
    m_firstTsNs = info.first_ts_ns;
    m_rows = int(info.packet_count);
    m_frames = info.packet_count;
    m_digits = info.format.starts_with("pcap-nsec") ? 9 : 6;
  } catch (const Error& e) {
    forget();
    m_problem = tr("The packets cannot be listed: %1").arg(qs(e.what()));
    endResetModel();
    return;
  }
  try {
    m_dissector = std::make_unique<FrameDissector>(capture.toStdString(), dissectors, m_firstTsNs);
    m_dissector->setConnectionHead([reader = m_reader.get()](int64_t conn) {
      PacketQuery q;  // a handshake, with a few retransmitted SYNs
      q.conn = conn;
      q.limit = 16;
      return reader->packets(q);
    });
    m_dissector->setConnectionSeqBases(
        [reader = m_reader.get()](int64_t conn) { return reader->tcpSeqBases(conn); });
    m_digits = m_dissector->timestampDigits();
    setDissectorColumns();
  } catch (const Error& e) {
    m_problem = tr("Source, Destination, Protocol and Info are not shown: %1").arg(qs(e.what()));
  }
  endResetModel();
}

void PacketListModel::clear() {
  beginResetModel();
  forget();
  endResetModel();
}

void PacketListModel::forget() {
  dropPages();
  m_marked.clear();
  m_filtered = false;
  m_shown.clear();
  m_frames = 0;
  m_problem.clear();
  m_dissector.reset();
  m_reader.reset();
  m_rows = 0;
}

std::vector<std::string> PacketListModel::fieldNames() const {
  std::vector<std::string> names;
  for (const QString& f : m_fieldColumns) names.push_back(f.toStdString());
  return names;
}

// Fields a dissector does not have (the capture was opened with others) are
// dropped from the columns.
void PacketListModel::setDissectorColumns() {
  QStringList kept;
  for (const QString& f : m_fieldColumns) {
    try {
      m_dissector->setFieldColumns({f.toStdString()});
      kept << f;
    } catch (const Error&) {}
  }
  m_fieldColumns = kept;
  m_dissector->setFieldColumns(fieldNames());
}

QString PacketListModel::addFieldColumn(const QString& field) {
  if (m_fieldColumns.contains(field)) return {};
  if (m_dissector) {
    try {
      m_dissector->setFieldColumns({field.toStdString()});
    } catch (const Error& e) {
      m_dissector->setFieldColumns(fieldNames());
      return qs(e.what());
    }
  }
  beginInsertColumns({}, ColumnCount + int(m_fieldColumns.size()), ColumnCount + int(m_fieldColumns.size()));
  m_fieldColumns << field;
  if (m_dissector) m_dissector->setFieldColumns(fieldNames());
  dropPages();
  endInsertColumns();
  return {};
}

void PacketListModel::removeFieldColumn(int column) {
  const int i = column - ColumnCount;
  if (i < 0 || i >= int(m_fieldColumns.size())) return;
  beginRemoveColumns({}, column, column);
  m_fieldColumns.removeAt(i);
  if (m_dissector) m_dissector->setFieldColumns(fieldNames());
  dropPages();
  endRemoveColumns();
}

void PacketListModel::setTimeFormat(TimeFormat format) {
  m_format = format;
  if (m_rows > 0) emit dataChanged(index(0, Time), index(m_rows - 1, Time), {Qt::DisplayRole});
  emit headerDataChanged(Qt::Horizontal, Time, Time);
}

std::optional<PacketRecord> PacketListModel::record(int r) const {
  const Row* found = row(r);
  return found ? std::optional<PacketRecord>(found->stored) : std::nullopt;
}

DissectedFrame PacketListModel::dissect(int r, const ConversationFacts* facts) const {
  const Row* found = row(r);
  if (!found) throw Error("no packet in row " + std::to_string(r));
  if (!m_dissector) throw Error(m_problem.toStdString());
  // The Frame layer's deltas: from the frames before this one in the capture and in the list.
  const FrameTimes times{found->stored.ts_ns, m_firstTsNs, found->previous_ts_ns,
                         found->previous_displayed_ts_ns};
  return m_dissector->dissect(found->stored, true, &times, facts);
}

int PacketListModel::rowOfFrame(uint64_t frame) const {
  if (!m_filtered) return frame >= 1 && frame <= uint64_t(m_rows) ? int(frame - 1) : -1;
  const auto it = std::lower_bound(m_shown.begin(), m_shown.end(), frame);
  return it != m_shown.end() && *it == frame ? int(it - m_shown.begin()) : -1;
}

uint64_t PacketListModel::frameOfRow(int row) const {
  if (!m_filtered) return uint64_t(row) + 1;
  return row >= 0 && size_t(row) < m_shown.size() ? m_shown[size_t(row)] : 0;
}

void PacketListModel::dropPages() {
  m_pages.clear();
  m_pageIndex.clear();
}

void PacketListModel::setDisplayedFrames(std::vector<uint64_t> frames) {
  beginResetModel();
  dropPages();
  m_filtered = true;
  m_shown = std::move(frames);
  m_rows = int(m_shown.size());
  endResetModel();
}

void PacketListModel::appendDisplayedFrames(const std::vector<uint64_t>& frames) {
  if (frames.empty() || !m_filtered) return;
  // The last page may be short: it is read again with the new rows.
  if (m_rows % kPageRows != 0 && m_pageIndex.count(m_rows / kPageRows)) {
    m_pages.erase(m_pageIndex[m_rows / kPageRows]);
    m_pageIndex.erase(m_rows / kPageRows);
  }
  beginInsertRows({}, m_rows, m_rows + int(frames.size()) - 1);
  m_shown.insert(m_shown.end(), frames.begin(), frames.end());
  m_rows = int(m_shown.size());
  endInsertRows();
}

void PacketListModel::displayAllFrames() {
  beginResetModel();
  dropPages();
  m_filtered = false;
  m_shown.clear();
  m_rows = m_reader ? int(m_frames) : 0;
  endResetModel();
}

void PacketListModel::setMarked(int r, bool marked) {
  if (r < 0 || r >= m_rows) return;
  if (marked)
    m_marked.insert(frameOfRow(r));
  else
    m_marked.erase(frameOfRow(r));
  emit dataChanged(index(r, 0), index(r, columnCount() - 1),
                   {Qt::BackgroundRole, Qt::ForegroundRole, MarkedRole});
}

void PacketListModel::clearMarks() {
  m_marked.clear();
  if (m_rows > 0) emit dataChanged(index(0, 0), index(m_rows - 1, columnCount() - 1));
}

void PacketListModel::fail(const QString& message) const {
  if (!m_problem.isEmpty()) return;
  m_problem = message;
  m_dissector.reset();
  // Found inside data(): told after it returns, not while a view is painting.
  auto* self = const_cast<PacketListModel*>(this);
  QMetaObject::invokeMethod(
      self, [self, message] { emit self->problemFound(message); }, Qt::QueuedConnection);
}

void PacketListModel::setColumns(Row& r) const {
  if (!m_dissector) return;
  try {
    const DissectedFrame f = m_dissector->dissect(r.stored, false);
    r.source = qs(f.source);
    r.destination = qs(f.destination);
    r.protocol = qs(f.protocol);
    r.info = qs(f.info);
    for (const std::string& v : f.field_columns) r.fields << qs(v);
  } catch (const Error& e) { fail(qs(e.what())); }
}

// Rows of arbitrary frames: each is one indexed lookup, and one more for the
// frame captured before it (Wireshark's delta time).
PacketListModel::Page PacketListModel::loadFilteredPage(int index) const {
  Page page;
  const int from = index * kPageRows, to = std::min(m_rows, from + kPageRows);
  int64_t previousShown = 0;
  for (int row = from; row < to; ++row) {
    const uint64_t frame = m_shown[size_t(row)];
    const std::optional<PacketRecord> stored = m_reader->packet(frame);
    if (!stored) break;
    Row r;
    r.stored = *stored;
    const std::optional<PacketRecord> before = frame > 1 ? m_reader->packet(frame - 1) : std::nullopt;
    r.previous_ts_ns = before ? before->ts_ns : r.stored.ts_ns;
    if (row == from) {
      const std::optional<PacketRecord> above =
          row > 0 ? m_reader->packet(m_shown[size_t(row) - 1]) : std::nullopt;
      previousShown = above ? above->ts_ns : r.stored.ts_ns;
    }
    r.previous_displayed_ts_ns = previousShown;
    previousShown = r.stored.ts_ns;
    setColumns(r);
    page.push_back(std::move(r));
  }
  return page;
}

PacketListModel::Page PacketListModel::loadPage(int index) const {
  if (m_filtered) return loadFilteredPage(index);
  const uint64_t first = uint64_t(index) * kPageRows + 1;
  PacketQuery q;
  q.first_frame = first > 1 ? first - 1 : 1;  // the frame before, for the delta times
  q.last_frame = first + kPageRows - 1;
  std::vector<PacketRecord> stored = m_reader->packets(q);
  Page page;
  page.reserve(kPageRows);
  for (size_t i = 0; i < stored.size(); ++i) {
    if (stored[i].frame < first) continue;
    Row r;
    r.stored = stored[i];
    r.previous_ts_ns = i > 0 ? stored[i - 1].ts_ns : r.stored.ts_ns;
    r.previous_displayed_ts_ns = r.previous_ts_ns;
    setColumns(r);
    page.push_back(std::move(r));
  }
  return page;
}

const PacketListModel::Page& PacketListModel::page(int index) const {
  auto it = m_pageIndex.find(index);
  if (it != m_pageIndex.end()) {
    m_pages.splice(m_pages.begin(), m_pages, it->second);
    return m_pages.front().second;
  }
  m_pages.emplace_front(index, loadPage(index));
  m_pageIndex[index] = m_pages.begin();
  if (m_pages.size() > kMaxPages) {
    m_pageIndex.erase(m_pages.back().first);
    m_pages.pop_back();
  }
  return m_pages.front().second;
}

const PacketListModel::Row* PacketListModel::row(int r) const {
  if (!m_reader || r < 0 || r >= m_rows) return nullptr;
  const Page& p = page(r / kPageRows);
  const size_t at = size_t(r % kPageRows);
  return at < p.size() ? &p[at] : nullptr;
}

// Wireshark's marked packets: white on black; its default coloring rule
// "Bad TCP": light red on near-black (colorfilters, 4.0).
QVariant PacketListModel::rowColor(int r, bool marked, int role) const {
  const bool background = role == Qt::BackgroundRole;
  if (marked) return QBrush(background ? Qt::black : Qt::white);
  const Row* row = this->row(r);
  if (!row || !isBadTcp(row->stored.tcp_notes)) return {};
  return QBrush(background ? QColor(0x12, 0x27, 0x2e) : QColor(0xf7, 0x87, 0x87));
}

QString PacketListModel::timeText(const Row& r) const {
  const FrameTimes t{r.stored.ts_ns, m_firstTsNs, r.previous_ts_ns, r.previous_displayed_ts_ns};
  return qs(formatFrameTime(m_format, t, m_digits));
}

int PacketListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }

int PacketListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount + int(m_fieldColumns.size());
}

QVariant PacketListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= m_rows) return {};
  const bool marked = m_marked.count(frameOfRow(index.row())) != 0;
  if (role == MarkedRole) return marked;
  if (role == FrameRole) return qulonglong(frameOfRow(index.row()));
  if (role == Qt::BackgroundRole || role == Qt::ForegroundRole) return rowColor(index.row(), marked, role);
  if (role == Qt::TextAlignmentRole && (index.column() == Number || index.column() == Length))
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  const Row* r = row(index.row());
  if (!r) return {};
  switch (index.column()) {
    case Number: return qulonglong(r->stored.frame);
    case Time: return timeText(*r);
    case Source: return r->source;
    case Destination: return r->destination;
    case Protocol: return r->protocol;
    case Length: return r->stored.origlen;
    case Info: return r->info;
    default:
      return index.column() - ColumnCount < r->fields.size() ? r->fields[index.column() - ColumnCount]
                                                             : QVariant();
  }
}

QVariant PacketListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* const names[] = {"No.", "Time", "Source", "Destination", "Protocol", "Length", "Info"};
  if (role == Qt::DisplayRole && section >= 0 && section < ColumnCount) return tr(names[section]);
  if (role == Qt::DisplayRole && section >= ColumnCount && section - ColumnCount < m_fieldColumns.size())
    return m_fieldColumns[section - ColumnCount];
  if (role == Qt::ToolTipRole && section == Time) {
    for (const TimeFormatInfo& f : timeFormats())
      if (f.format == m_format) return tr("Time: %1 (View ▸ Time Display Format)").arg(tr(f.label));
  }
  return {};
}

}  // namespace rudp::gui
