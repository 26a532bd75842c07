// The stall list: one row per stall (analysis/analyzers/stall.h), times
// relative to the capture's first frame. DisplayRole is the text, RawRole
// the number in the header's unit (start in s, duration in ms, the first
// frame for "Frames").
#pragma once
#include <QAbstractTableModel>
#include <vector>

#include "store/records.h"

namespace rudp::gui {

struct StallRow {
  int64_t conn = 0;
  ana::StallEvent stall;
};

// The stalls of both directions of one connection, by start time.
std::vector<StallRow> stallRowsOf(const ConnectionRecord& r);

class StallsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { RawRole = Qt::UserRole };
  enum Column { Conn, Dir, Start, Duration, Cause, Retransmissions, Frames, Notes, ColumnCount };

  explicit StallsModel(QObject* parent = nullptr);

  void setStalls(std::vector<StallRow> stalls, int64_t captureStartNs);
  const StallRow& stall(int row) const { return m_rows[row]; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVariant raw(const StallRow& s, int column) const;
  QString text(const StallRow& s, int column) const;

  std::vector<StallRow> m_rows;
  int64_t m_captureStartNs = 0;
};

}  // namespace rudp::gui
