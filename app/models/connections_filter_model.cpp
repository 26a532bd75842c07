#include "models/connections_filter_model.h"

#include "models/connections_model.h"

namespace rudp::gui {

namespace {
QString cellText(const QAbstractItemModel& m, int row, int column) {
  return column < 0 ? QString() : m.index(row, column).data().toString();
}
}  // namespace

ConnectionsFilterModel::ConnectionsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(ConnectionsModel::RawRole);
}

void ConnectionsFilterModel::setFilterText(const QString& text) {
  QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
  if (words == m_words) return;
  m_words = std::move(words);
  invalidateRowsFilter();
}

QStringList ConnectionsFilterModel::searchableTexts(const QAbstractItemModel& source, int sourceRow) {
  const auto* m = qobject_cast<const ConnectionsModel*>(&source);
  if (!m) return {};
  QStringList texts;
  for (const char* id : {"id", "protocol", "client", "server", "conn_id"})
    texts << cellText(source, sourceRow, m->columnOfId(QString::fromLatin1(id)));
  const ConnectionRecord& r = m->record(sourceRow);
  if (r.summary.has_conn_id) texts << QString::number(r.summary.conn_id);
  return texts;
}

bool ConnectionsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (m_words.isEmpty() || sourceParent.isValid()) return true;
  const QStringList texts = searchableTexts(*sourceModel(), sourceRow);
  for (const QString& w : m_words) {
    bool found = false;
    for (const QString& t : texts) found = found || t.contains(w, Qt::CaseInsensitive);
    if (!found) return false;
  }
  return true;
}

bool ConnectionsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const QVariant l = left.data(sortRole()), r = right.data(sortRole());
  if (!l.isValid() || !r.isValid()) return !l.isValid() && r.isValid();
  return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace rudp::gui
