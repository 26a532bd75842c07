// Loss-burst histogram as a table: one row per burst length that occurred in
// either direction, with how many bursts of that length each direction had
// (analysis/analyzers/metrics.h: DirectionMetrics::loss_bursts).
#pragma once
#include <QAbstractTableModel>
#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace rudp::gui {

using BurstHistogram = std::map<uint32_t, uint64_t>;  // burst length -> count

class LossBurstModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { RawRole = Qt::UserRole };
  enum Column { Length, ClientToServer, ServerToClient, ColumnCount };

  explicit LossBurstModel(QObject* parent = nullptr);

  void setBursts(const std::array<BurstHistogram, 2>& byDirection);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    uint32_t length = 0;
    std::array<uint64_t, 2> count{};
  };
  std::vector<Row> m_rows;
};

}  // namespace rudp::gui
