// The charts of the Statistics page in one grid: the RTT histogram of each
// direction (range and bin width from models/rtt_histogram.h), the loss-burst histogram of each direction,
// and the RTT CDF of both directions beside them.
#pragma once
#include <QWidget>

#include "models/statistics_data.h"

namespace rudp::gui {

class CdfChart;
class HistogramChart;

class StatisticsCharts : public QWidget {
  Q_OBJECT
 public:
  explicit StatisticsCharts(QWidget* parent = nullptr);

  void setData(const StatisticsData& data);

  HistogramChart* rttHistogram(Direction d) const { return m_rtt[static_cast<int>(d)]; }
  HistogramChart* lossBurstHistogram(Direction d) const { return m_bursts[static_cast<int>(d)]; }
  CdfChart* rttCdf() const { return m_cdf; }

 private:
  void setDirection(const StatisticsData& data, Direction d);

  HistogramChart* m_rtt[2];
  HistogramChart* m_bursts[2];
  CdfChart* m_cdf;
};

}  // namespace rudp::gui
