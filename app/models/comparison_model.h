// The Compare page's side-by-side table: a column per compared connection
// direction, a row per figure. The first rows say what each column is
// (capture, connection, direction, then one row per label any column has);
// then one row per metric of cmp::comparisonMetrics(), in its order, each
// value with its unit ("–" where the capture cannot tell). Column 0 names the
// row, so a CSV export (tableToCsv) reads as the table does.
#pragma once
#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "compare/comparison.h"

namespace rudp::gui {

class ComparisonModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // RawRole: a metric's number (double; invalid for kNone and on the
  // description rows). KeyRole (column 0): the metric's key, or "" on a
  // description row.
  enum Role { RawRole = Qt::UserRole, KeyRole };

  explicit ComparisonModel(QObject* parent = nullptr);

  void setColumns(std::vector<cmp::DirectionComparison> columns);
  const std::vector<cmp::DirectionComparison>& columns() const { return m_columns; }
  void clear() { setColumns({}); }

  // Rows before the metrics (capture, connection, direction, labels).
  int descriptionRows() const { return 3 + static_cast<int>(m_labelKeys.size()); }
  // The row of the metric `key`; -1 when none.
  int rowOfMetric(const QString& key) const;
  // The row of the label `key`; -1 when no column has it.
  int rowOfLabel(const QString& key) const;
  // The short name of a compared direction, as the column header and the
  // CDF legend give it: "loss5_rto200 #1 c→s".
  static QString columnName(const cmp::DirectionComparison& d);
  // A metric's value with its unit ("12.3 ms", "2.50 %"), "–" for kNone.
  static QString valueText(double value, const std::string& unit);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QString rowName(int row) const;
  QVariant descriptionText(int row, const cmp::DirectionComparison& d) const;
  QVariant metricData(int metricIndex, const cmp::DirectionComparison& d, int role) const;

  std::vector<cmp::DirectionComparison> m_columns;
  std::vector<std::string> m_labelKeys;  // sorted union of the columns' label keys
};

}  // namespace rudp::gui
