// The Compare page's connection picker: every connection direction of the
// compared captures, one row each, with a check box choosing it as a column
// of the side-by-side table and a curve of the CDF overlay. At first the
// busiest connection of each capture (cmp::busiest) is checked in the
// client-to-server direction.
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "compare/comparison.h"

namespace rudp::gui {

class CompareRowsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    CaptureColumn,
    ConnectionColumn,
    DirectionColumn,
    DataPacketsColumn,
    LabelsColumn,
    ColumnCount
  };

  explicit CompareRowsModel(QObject* parent = nullptr);

  // Checks the busiest connection of each capture in `dir`.
  void setRows(std::vector<cmp::DirectionComparison> rows, Direction dir = Direction::ClientToServer);
  const std::vector<cmp::DirectionComparison>& rows() const { return m_rows; }
  void clear() { setRows({}); }

  bool isChecked(int row) const { return m_checked.at(row); }
  void setChecked(int row, bool on);
  // The checked rows, in row order, and their indexes.
  std::vector<cmp::DirectionComparison> checkedRows() const;
  std::vector<int> checkedIndexes() const;
  // The row of capture `capture`'s connection `conn` in `dir`; -1 when none.
  int rowOf(const std::string& capture, int64_t conn, Direction dir) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  // The set of checked rows changed.
  void checkedChanged();

 private:
  QVariant displayText(const cmp::DirectionComparison& d, int column) const;

  std::vector<cmp::DirectionComparison> m_rows;
  std::vector<bool> m_checked;
};

}  // namespace rudp::gui
