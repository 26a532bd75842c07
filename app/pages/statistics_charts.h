// The charts of the Statistics page: RTT histogram of each direction, the
// RTT CDF of both, and the loss-burst histogram, in a grid.
#pragma once
#include <QWidget>

#include "models/statistics_data.h"

class QLabel;

namespace rudp::gui {

class StatisticsCharts : public QWidget {
  Q_OBJECT
 public:
  explicit StatisticsCharts(QWidget* parent = nullptr);

  void setData(const StatisticsData& data);

 private:
  QLabel* m_placeholder;
};

}  // namespace rudp::gui
