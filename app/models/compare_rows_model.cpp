#include "models/compare_rows_model.h"

#include <QFileInfo>
#include <set>

#include "compare/matrix.h"
#include "models/value_text.h"

namespace rudp::gui {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

CompareRowsModel::CompareRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareRowsModel::setRows(std::vector<cmp::DirectionComparison> rows, Direction dir) {
  beginResetModel();
  m_rows = std::move(rows);
  m_checked.assign(m_rows.size(), false);
  std::set<std::string> captures;
  for (const cmp::DirectionComparison& d : m_rows) captures.insert(d.capture);
  for (const std::string& capture : captures)
    if (const cmp::DirectionComparison* busiest = cmp::busiest(m_rows, capture, dir))
      m_checked[static_cast<size_t>(busiest - m_rows.data())] = true;
  endResetModel();
  emit checkedChanged();
}

void CompareRowsModel::setChecked(int row, bool on) {
  if (m_checked.at(row) == on) return;
  m_checked[row] = on;
  emit dataChanged(index(row, CaptureColumn), index(row, CaptureColumn), {Qt::CheckStateRole});
  emit checkedChanged();
}

std::vector<cmp::DirectionComparison> CompareRowsModel::checkedRows() const {
  std::vector<cmp::DirectionComparison> out;
  for (size_t i = 0; i < m_rows.size(); ++i)
    if (m_checked[i]) out.push_back(m_rows[i]);
  return out;
}

std::vector<int> CompareRowsModel::checkedIndexes() const {
  std::vector<int> out;
  for (size_t i = 0; i < m_rows.size(); ++i)
    if (m_checked[i]) out.push_back(static_cast<int>(i));
  return out;
}

int CompareRowsModel::rowOf(const std::string& capture, int64_t conn, Direction dir) const {
  for (size_t i = 0; i < m_rows.size(); ++i)
    if (m_rows[i].capture == capture && m_rows[i].conn == conn && m_rows[i].dir == dir)
      return static_cast<int>(i);
  return -1;
}

int CompareRowsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CompareRowsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareRowsModel::displayText(const cmp::DirectionComparison& d, int column) const {
  switch (column) {
    case CaptureColumn: return QFileInfo(qs(d.capture)).fileName();
    case ConnectionColumn:
      return QStringLiteral("#%1 %2 %3 → %4").arg(d.conn).arg(qs(d.protocol), qs(d.client), qs(d.server));
    case DirectionColumn: return directionShortName(d.dir);
    case DataPacketsColumn: return countText(d.data_packets);
    case LabelsColumn: return qs(cmp::labelText(d.labels));
    default: return {};
  }
}

QVariant CompareRowsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const cmp::DirectionComparison& d = m_rows[index.row()];
  switch (role) {
    case Qt::DisplayRole: return displayText(d, index.column());
    case Qt::CheckStateRole:
      if (index.column() != CaptureColumn) return {};
      return m_checked[index.row()] ? Qt::Checked : Qt::Unchecked;
    case Qt::ToolTipRole: return index.column() == CaptureColumn ? qs(d.capture) : QVariant();
    case Qt::TextAlignmentRole:
      return index.column() == DataPacketsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default: return {};
  }
}

bool CompareRowsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::CheckStateRole ||
      index.column() != CaptureColumn)
    return false;
  setChecked(index.row(), value.value<Qt::CheckState>() == Qt::Checked);
  return true;
}

Qt::ItemFlags CompareRowsModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  if (index.isValid() && index.column() == CaptureColumn) f |= Qt::ItemIsUserCheckable;
  return f;
}

QVariant CompareRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  switch (section) {
    case CaptureColumn: return tr("Capture");
    case ConnectionColumn: return tr("Connection");
    case DirectionColumn: return tr("Dir");
    case DataPacketsColumn: return tr("Data packets");
    case LabelsColumn: return tr("Labels");
    default: return {};
  }
}

}  // namespace rudp::gui
