#include "models/connections_model.h"

#include <algorithm>
#include <iterator>

namespace rudp::gui {

ConnectionsModel::ConnectionsModel(QObject* parent)
    : QAbstractTableModel(parent), m_columns(connectionColumns({}, 0)) {}

void ConnectionsModel::setConnections(std::vector<ConnectionRecord> records, const AnalysisSettings& settings,
                                      const CaptureInfo& capture) {
  beginResetModel();
  m_records = std::move(records);
  m_columns = connectionColumns(settings, capture.first_ts_ns);
  endResetModel();
}

void ConnectionsModel::updateConnections(std::vector<ConnectionRecord> records) {
  const size_t old = m_records.size();
  const bool sameRows =
      records.size() >= old && std::equal(m_records.begin(), m_records.end(), records.begin(),
                                          [](const ConnectionRecord& a, const ConnectionRecord& b) {
                                            return a.summary.id == b.summary.id;
                                          });
  if (!sameRows) {
    beginResetModel();
    m_records = std::move(records);
    endResetModel();
    return;
  }
  std::move(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(old), m_records.begin());
  if (old > 0) emit dataChanged(index(0, 0), index(int(old) - 1, columnCount() - 1));
  if (records.size() == old) return;
  beginInsertRows({}, int(old), int(records.size()) - 1);
  m_records.insert(m_records.end(),
                   std::make_move_iterator(records.begin() + static_cast<std::ptrdiff_t>(old)),
                   std::make_move_iterator(records.end()));
  endInsertRows();
}

int ConnectionsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_records.size());
}

int ConnectionsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant ConnectionsModel::raw(const ConnectionRecord& r, const ConnectionColumn& c) const {
  if (c.whole) return c.whole(r);
  return combineDirections(c.perDirection(r, Direction::ClientToServer),
                           c.perDirection(r, Direction::ServerToClient), c.combine);
}

QString ConnectionsModel::text(const ConnectionRecord& r, const ConnectionColumn& c) const {
  if (c.whole) return variantText(c.whole(r), c.kind);
  auto one = [&](Direction d) {
    const QVariant v = c.perDirection(r, d);
    return variantText(v, c.kind) + (c.mark && v.isValid() ? c.mark(r, d) : QString());
  };
  return directionPairText(one(Direction::ClientToServer), one(Direction::ServerToClient));
}

QVariant ConnectionsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const ConnectionRecord& r = m_records[index.row()];
  const ConnectionColumn& c = m_columns[index.column()];
  switch (role) {
    case Qt::DisplayRole: return text(r, c);
    case RawRole: return raw(r, c);
    case ConnectionIdRole: return QVariant::fromValue<qlonglong>(r.summary.id);
    case Qt::ToolTipRole: return c.tip;
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(c.kind == NumberKind::Text ? Qt::AlignLeft | Qt::AlignVCenter
                                                            : Qt::AlignRight | Qt::AlignVCenter);
    case DirectionValuesRole:
      if (!c.perDirection) return {};
      return QVariantList{c.perDirection(r, Direction::ClientToServer),
                          c.perDirection(r, Direction::ServerToClient)};
    default: return {};
  }
}

QVariant ConnectionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
    return QAbstractTableModel::headerData(section, orientation, role);
  const ConnectionColumn& c = m_columns[section];
  if (role == Qt::DisplayRole) return c.perDirection ? c.title + QStringLiteral("\nc→s / s→c") : c.title;
  if (role == Qt::ToolTipRole) return c.tip;
  return {};
}

int ConnectionsModel::rowOfConnection(int64_t id) const {
  for (size_t i = 0; i < m_records.size(); ++i)
    if (m_records[i].summary.id == id) return static_cast<int>(i);
  return -1;
}

int ConnectionsModel::columnOfId(const QString& id) const {
  for (size_t i = 0; i < m_columns.size(); ++i)
    if (m_columns[i].id == id) return static_cast<int>(i);
  return -1;
}

}  // namespace rudp::gui
