// The Statistics page's figures of one connection, one row per figure and a
// column per direction: RTT samples and percentiles, RFC 3550 jitter, packet
// spacing and tick rate, lost seqs and mean loss burst, stalls. RawRole gives
// the number in the row's unit (invalid where the analysis has none).
#pragma once
#include <QAbstractTableModel>
#include <functional>
#include <vector>

#include "models/statistics_data.h"
#include "models/value_text.h"

namespace rudp::gui {

class DirectionFiguresModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Role { RawRole = Qt::UserRole };
  enum Column { Figure, ClientToServer, ServerToClient, ColumnCount };

  explicit DirectionFiguresModel(QObject* parent = nullptr);

  void setStatistics(const StatisticsData& data);
  // The row whose figure is called `name` ("Jitter (ms)"); -1 when none.
  int rowOfFigure(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString name, tip;
    NumberKind kind;
    std::array<QVariant, 2> value;
  };
  std::vector<Row> m_rows;
};

}  // namespace rudp::gui
