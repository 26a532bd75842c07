// The Connections table's sorting and filter box. Sorts by the source
// model's raw values (ConnectionsModel::RawRole), so numbers sort as numbers;
// a missing value counts as lower than any number (last when worst first). The filter keeps a row when every
// whitespace-separated word of the text occurs (case-insensitively) in its
// protocol, client, server, conn id (hex "0x…" or decimal) or connection
// number.
#pragma once
#include <QSortFilterProxyModel>
#include <QStringList>

namespace rudp::gui {

class ConnectionsFilterModel : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  explicit ConnectionsFilterModel(QObject* parent = nullptr);

  void setFilterText(const QString& text);
  QString filterText() const { return m_words.join(QLatin1Char(' ')); }

  // The strings a row is matched against (exposed for the tests and tooltips).
  static QStringList searchableTexts(const QAbstractItemModel& source, int sourceRow);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

 private:
  QStringList m_words;
};

}  // namespace rudp::gui
