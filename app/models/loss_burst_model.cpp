#include "models/loss_burst_model.h"

namespace rudp::gui {

LossBurstModel::LossBurstModel(QObject* parent) : QAbstractTableModel(parent) {}

void LossBurstModel::setBursts(const std::array<BurstHistogram, 2>& byDirection) {
  std::map<uint32_t, std::array<uint64_t, 2>> merged;
  for (int d = 0; d < 2; ++d)
    for (const auto& [length, count] : byDirection[d]) merged[length][d] = count;
  beginResetModel();
  m_rows.clear();
  for (const auto& [length, counts] : merged) m_rows.push_back({length, counts});
  endResetModel();
}

int LossBurstModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LossBurstModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant LossBurstModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& r = m_rows[index.row()];
  const qulonglong value = index.column() == Length ? r.length : r.count[index.column() - 1];
  switch (role) {
    case Qt::DisplayRole: return QString::number(value);
    case RawRole: return value;
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default: return {};
  }
}

QVariant LossBurstModel::headerData(int section, Qt::Orientation orientation, int role) const {
  static const char* const titles[ColumnCount] = {"Burst length (packets)", "Bursts c→s", "Bursts s→c"};
  static const char* const tips[ColumnCount] = {"Consecutive seqs lost together.",
                                                "How many bursts of this length client→server data had.",
                                                "How many bursts of this length server→client data had."};
  if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
    return QAbstractTableModel::headerData(section, orientation, role);
  if (role == Qt::DisplayRole) return QString::fromUtf8(titles[section]);
  if (role == Qt::ToolTipRole) return QString::fromUtf8(tips[section]);
  return {};
}

}  // namespace rudp::gui
