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
  dbPath_ = dbPath;
  capture_ = capture;
  try {
    reader_ = std::make_unique<StoreReader>(dbPath.toStdString());
    const CaptureInfo info = reader_->capture();
    first_ts_ns_ = info.first_ts_ns;
    rows_ = int(info.packet_count);
    frames_ = info.packet_count;
    digits_ = info.format.starts_with("pcap-nsec") ? 9 : 6;
  } catch (const Error& e) {
    forget();
    problem_ = tr("The packets cannot be listed: %1").arg(qs(e.what()));
    endResetModel();
    return;
  }
  try {
    dissector_ = std::make_unique<FrameDissector>(capture.toStdString(), dissectors, first_ts_ns_);
    dissector_->setConnectionHead([reader = reader_.get()](int64_t conn) {
      PacketQuery q;  // a handshake, with a few retransmitted SYNs
      q.conn = conn;
      q.limit = 16;
      return reader->packets(q);
    });
    dissector_->setConnectionSeqBases(
        [reader = reader_.get()](int64_t conn) { return reader->tcpSeqBases(conn); });
    digits_ = dissector_->timestampDigits();
    setDissectorColumns();
  } catch (const Error& e) {
    problem_ = tr("Source, Destination, Protocol and Info are not shown: %1").arg(qs(e.what()));
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
  marked_.clear();
  filtered_ = false;
  shown_.clear();
  frames_ = 0;
  problem_.clear();
  dissector_.reset();
  reader_.reset();
  rows_ = 0;
}

std::vector<std::string> PacketListModel::fieldNames() const {
  std::vector<std::string> names;
  for (const QString& f : fieldColumns_) names.push_back(f.toStdString());
  return names;
}

// Fields a dissector does not have (the capture was opened with others) are
// dropped from the columns.
void PacketListModel::setDissectorColumns() {
  QStringList kept;
  for (const QString& f : fieldColumns_) {
    try {
      dissector_->setFieldColumns({f.toStdString()});
      kept << f;
    } catch (const Error&) {}
  }
  fieldColumns_ = kept;
  dissector_->setFieldColumns(fieldNames());
}

QString PacketListModel::addFieldColumn(const QString& field) {
  if (fieldColumns_.contains(field)) return {};
  if (dissector_) {
    try {
      dissector_->setFieldColumns({field.toStdString()});
    } catch (const Error& e) {
      dissector_->setFieldColumns(fieldNames());
      return qs(e.what());
    }
  }
  beginInsertColumns({}, ColumnCount + int(fieldColumns_.size()), ColumnCount + int(fieldColumns_.size()));
  fieldColumns_ << field;
  if (dissector_) dissector_->setFieldColumns(fieldNames());
  dropPages();
  endInsertColumns();
  return {};
}

void PacketListModel::removeFieldColumn(int column) {
  const int i = column - ColumnCount;
  if (i < 0 || i >= int(fieldColumns_.size())) return;
  beginRemoveColumns({}, column, column);
  fieldColumns_.removeAt(i);
  if (dissector_) dissector_->setFieldColumns(fieldNames());
  dropPages();
  endRemoveColumns();
}

void PacketListModel::setTimeFormat(TimeFormat format) {
  format_ = format;
  if (rows_ > 0) emit dataChanged(index(0, Time), index(rows_ - 1, Time), {Qt::DisplayRole});
  emit headerDataChanged(Qt::Horizontal, Time, Time);
}

std::optional<PacketRecord> PacketListModel::record(int r) const {
  const Row* found = row(r);
  return found ? std::optional<PacketRecord>(found->stored) : std::nullopt;
}

DissectedFrame PacketListModel::dissect(int r, const ConversationFacts* facts) const {
  const Row* found = row(r);
  if (!found) throw Error("no packet in row " + std::to_string(r));
  if (!dissector_) throw Error(problem_.toStdString());
  // The Frame layer's deltas: from the frames before this one in the capture and in the list.
  const FrameTimes times{found->stored.ts_ns, first_ts_ns_, found->previous_ts_ns,
                         found->previous_displayed_ts_ns};
  return dissector_->dissect(found->stored, true, &times, facts);
}

int PacketListModel::rowOfFrame(uint64_t frame) const {
  if (!filtered_) return frame >= 1 && frame <= uint64_t(rows_) ? int(frame - 1) : -1;
  const auto it = std::lower_bound(shown_.begin(), shown_.end(), frame);
  return it != shown_.end() && *it == frame ? int(it - shown_.begin()) : -1;
}

uint64_t PacketListModel::frameOfRow(int row) const {
  if (!filtered_) return uint64_t(row) + 1;
  return row >= 0 && size_t(row) < shown_.size() ? shown_[size_t(row)] : 0;
}

void PacketListModel::dropPages() {
  pages_.clear();
  pageIndex_.clear();
}

void PacketListModel::setDisplayedFrames(std::vector<uint64_t> frames) {
  beginResetModel();
  dropPages();
  filtered_ = true;
  shown_ = std::move(frames);
  rows_ = int(shown_.size());
  endResetModel();
}

void PacketListModel::appendDisplayedFrames(const std::vector<uint64_t>& frames) {
  if (frames.empty() || !filtered_) return;
  // The last page may be short: it is read again with the new rows.
  if (rows_ % kPageRows != 0 && pageIndex_.count(rows_ / kPageRows)) {
    pages_.erase(pageIndex_[rows_ / kPageRows]);
    pageIndex_.erase(rows_ / kPageRows);
  }
  beginInsertRows({}, rows_, rows_ + int(frames.size()) - 1);
  shown_.insert(shown_.end(), frames.begin(), frames.end());
  rows_ = int(shown_.size());
  endInsertRows();
}

void PacketListModel::displayAllFrames() {
  beginResetModel();
  dropPages();
  filtered_ = false;
  shown_.clear();
  rows_ = reader_ ? int(frames_) : 0;
  endResetModel();
}

void PacketListModel::setMarked(int r, bool marked) {
  if (r < 0 || r >= rows_) return;
  if (marked)
    marked_.insert(frameOfRow(r));
  else
    marked_.erase(frameOfRow(r));
  emit dataChanged(index(r, 0), index(r, columnCount() - 1),
                   {Qt::BackgroundRole, Qt::ForegroundRole, MarkedRole});
}

void PacketListModel::clearMarks() {
  marked_.clear();
  if (rows_ > 0) emit dataChanged(index(0, 0), index(rows_ - 1, columnCount() - 1));
}

void PacketListModel::fail(const QString& message) const {
  if (!problem_.isEmpty()) return;
  problem_ = message;
  dissector_.reset();
  // Found inside data(): told after it returns, not while a view is painting.
  auto* self = const_cast<PacketListModel*>(this);
  QMetaObject::invokeMethod(
      self, [self, message] { emit self->problemFound(message); }, Qt::QueuedConnection);
}

void PacketListModel::setColumns(Row& r) const {
  if (!dissector_) return;
  try {
    const DissectedFrame f = dissector_->dissect(r.stored, false);
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
  const int from = index * kPageRows, to = std::min(rows_, from + kPageRows);
  int64_t previousShown = 0;
  for (int row = from; row < to; ++row) {
    const uint64_t frame = shown_[size_t(row)];
    const std::optional<PacketRecord> stored = reader_->packet(frame);
    if (!stored) break;
    Row r;
    r.stored = *stored;
    const std::optional<PacketRecord> before = frame > 1 ? reader_->packet(frame - 1) : std::nullopt;
    r.previous_ts_ns = before ? before->ts_ns : r.stored.ts_ns;
    if (row == from) {
      const std::optional<PacketRecord> above =
          row > 0 ? reader_->packet(shown_[size_t(row) - 1]) : std::nullopt;
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
  if (filtered_) return loadFilteredPage(index);
  const uint64_t first = uint64_t(index) * kPageRows + 1;
  PacketQuery q;
  q.first_frame = first > 1 ? first - 1 : 1;  // the frame before, for the delta times
  q.last_frame = first + kPageRows - 1;
  std::vector<PacketRecord> stored = reader_->packets(q);
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
  auto it = pageIndex_.find(index);
  if (it != pageIndex_.end()) {
    pages_.splice(pages_.begin(), pages_, it->second);
    return pages_.front().second;
  }
  pages_.emplace_front(index, loadPage(index));
  pageIndex_[index] = pages_.begin();
  if (pages_.size() > kMaxPages) {
    pageIndex_.erase(pages_.back().first);
    pages_.pop_back();
  }
  return pages_.front().second;
}

const PacketListModel::Row* PacketListModel::row(int r) const {
  if (!reader_ || r < 0 || r >= rows_) return nullptr;
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
  const FrameTimes t{r.stored.ts_ns, first_ts_ns_, r.previous_ts_ns, r.previous_displayed_ts_ns};
  return qs(formatFrameTime(format_, t, digits_));
}

int PacketListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rows_; }

int PacketListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount + int(fieldColumns_.size());
}

QVariant PacketListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rows_) return {};
  const bool marked = marked_.count(frameOfRow(index.row())) != 0;
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
  if (role == Qt::DisplayRole && section >= ColumnCount && section - ColumnCount < fieldColumns_.size())
    return fieldColumns_[section - ColumnCount];
  if (role == Qt::ToolTipRole && section == Time) {
    for (const TimeFormatInfo& f : timeFormats())
      if (f.format == format_) return tr("Time: %1 (View ▸ Time Display Format)").arg(tr(f.label));
  }
  return {};
}

}  // namespace rudp::gui
