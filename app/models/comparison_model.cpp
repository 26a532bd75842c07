#include "models/comparison_model.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <set>

#include "compare/metric_list.h"
#include "models/value_text.h"

namespace rudp::gui {

namespace {

enum DescriptionRow { CaptureRow, ConnectionRow, DirectionRow, FirstLabelRow };

const std::vector<cmp::MetricInfo>& metrics() { return cmp::comparisonMetrics(); }

QString qs(const std::string& s) { return QString::fromStdString(s); }

bool isWhole(double v) { return std::floor(v) == v && std::fabs(v) < 1e15; }

}  // namespace

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setColumns(std::vector<cmp::DirectionComparison> columns) {
  beginResetModel();
  m_columns = std::move(columns);
  std::set<std::string> keys;
  for (const cmp::DirectionComparison& d : m_columns)
    for (const auto& [key, value] : d.labels) keys.insert(key);
  m_labelKeys.assign(keys.begin(), keys.end());
  endResetModel();
}

int ComparisonModel::rowOfMetric(const QString& key) const {
  const std::string k = key.toStdString();
  const auto& all = metrics();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].key == k) return descriptionRows() + static_cast<int>(i);
  return -1;
}

int ComparisonModel::rowOfLabel(const QString& key) const {
  const auto it = std::find(m_labelKeys.begin(), m_labelKeys.end(), key.toStdString());
  return it == m_labelKeys.end() ? -1 : FirstLabelRow + static_cast<int>(it - m_labelKeys.begin());
}

QString ComparisonModel::columnName(const cmp::DirectionComparison& d) {
  return QStringLiteral("%1 #%2 %3")
      .arg(QFileInfo(qs(d.capture)).completeBaseName())
      .arg(d.conn)
      .arg(directionShortName(d.dir));
}

QString ComparisonModel::valueText(double value, const std::string& unit) {
  if (std::isnan(value)) return missingText();
  QString number;
  if (unit == "ms" || unit == "kbit/s")
    number = QString::number(value, 'f', 1);
  else if (unit == "%" || unit == "/min")
    number = QString::number(value, 'f', 2);
  else
    number = isWhole(value) ? QString::number(static_cast<qlonglong>(value)) : QString::number(value, 'f', 3);
  return unit.empty() ? number : number + QLatin1Char(' ') + qs(unit);
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : descriptionRows() + static_cast<int>(metrics().size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : 1 + static_cast<int>(m_columns.size());
}

QString ComparisonModel::rowName(int row) const {
  switch (row) {
    case CaptureRow: return tr("Capture");
    case ConnectionRow: return tr("Connection");
    case DirectionRow: return tr("Direction");
    default: break;
  }
  if (row < descriptionRows()) return tr("Label: %1").arg(qs(m_labelKeys[row - FirstLabelRow]));
  const cmp::MetricInfo& m = metrics()[row - descriptionRows()];
  return m.unit.empty() ? qs(m.title) : QStringLiteral("%1 (%2)").arg(qs(m.title), qs(m.unit));
}

QVariant ComparisonModel::descriptionText(int row, const cmp::DirectionComparison& d) const {
  switch (row) {
    case CaptureRow: return QFileInfo(qs(d.capture)).fileName();
    case ConnectionRow:
      return QStringLiteral("#%1 %2 %3 → %4").arg(d.conn).arg(qs(d.protocol), qs(d.client), qs(d.server));
    case DirectionRow:
      return d.at_receiver ? tr("%1 (captured at the receiver)").arg(directionLongName(d.dir))
                           : directionLongName(d.dir);
    default: break;
  }
  const auto it = d.labels.find(m_labelKeys[row - FirstLabelRow]);
  return it == d.labels.end() ? missingText() : qs(it->second);
}

QVariant ComparisonModel::metricData(int metricIndex, const cmp::DirectionComparison& d, int role) const {
  const cmp::MetricInfo& m = metrics()[metricIndex];
  const double v = m.value(d);
  switch (role) {
    case Qt::DisplayRole: return valueText(v, m.unit);
    case RawRole: return std::isnan(v) ? QVariant() : QVariant(v);
    case Qt::TextAlignmentRole: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
      if (!std::isnan(v)) return {};
      if (m.round_trip && d.at_receiver)
        return tr("This direction was %1").arg(qs(cmp::receiverSideNote(d.dir)));
      return tr("This capture cannot tell (nothing to divide by)");
    default: return {};
  }
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const int row = index.row();
  if (index.column() == 0) {
    if (role == Qt::DisplayRole) return rowName(row);
    if (role == KeyRole)
      return row < descriptionRows() ? QString() : qs(metrics()[row - descriptionRows()].key);
    if (role == Qt::ToolTipRole && row >= descriptionRows())
      return qs(metrics()[row - descriptionRows()].key);
    return {};
  }
  const cmp::DirectionComparison& d = m_columns[index.column() - 1];
  if (row >= descriptionRows()) return metricData(row - descriptionRows(), d, role);
  if (role == Qt::DisplayRole) return descriptionText(row, d);
  if (role == Qt::ToolTipRole && row == CaptureRow) return qs(d.capture);
  return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  if (section < 0 || section >= columnCount()) return {};
  return section == 0 ? tr("Figure") : columnName(m_columns[section - 1]);
}

}  // namespace rudp::gui
