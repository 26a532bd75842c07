// One row per connection of the analysed capture, columns from
// connection_columns.h. DisplayRole is the text, Qt::UserRole (RawRole) the
// number in the header's unit that the table sorts by (per-direction
// columns: the sum or the larger of the two, see the column's tooltip),
// DirectionValuesRole the two directions' raw values, ToolTipRole what the
// column means.
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "models/connection_columns.h"
#include "store/records.h"

namespace rudp::gui {

class ConnectionsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role {
    RawRole = Qt::UserRole,
    DirectionValuesRole,  // QVariantList{c→s, s→c}; invalid for whole-connection columns
    ConnectionIdRole,     // the row's connection id (qlonglong), any column
  };

  explicit ConnectionsModel(QObject* parent = nullptr);

  void setConnections(std::vector<ConnectionRecord> records, const AnalysisSettings& settings,
                      const CaptureInfo& capture);

  // Newer figures of the same connections with new ones after them (a live
  // capture: ids only grow): rows change in place and new rows are appended,
  // so the selection and the scroll position stay. Anything else resets.
  void updateConnections(std::vector<ConnectionRecord> records);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  const ConnectionRecord& record(int row) const { return m_records[row]; }
  // The row of connection `id`; -1 when absent.
  int rowOfConnection(int64_t id) const;
  const ConnectionColumn& column(int c) const { return m_columns[c]; }
  // The column whose id (ConnectionColumn::id) is `id`; -1 when absent.
  int columnOfId(const QString& id) const;

 private:
  QVariant raw(const ConnectionRecord& r, const ConnectionColumn& c) const;
  QString text(const ConnectionRecord& r, const ConnectionColumn& c) const;

  std::vector<ConnectionRecord> m_records;
  std::vector<ConnectionColumn> m_columns;
};

}  // namespace rudp::gui
