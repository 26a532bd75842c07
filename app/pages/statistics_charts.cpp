#include "pages/statistics_charts.h"

#include <QLabel>
#include <QVBoxLayout>

namespace rudp::gui {

StatisticsCharts::StatisticsCharts(QWidget* parent) : QWidget(parent), m_placeholder(new QLabel) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_placeholder);
}

void StatisticsCharts::setData(const StatisticsData& data) {
  m_placeholder->setText(tr("%1 RTT samples c→s, %2 s→c").arg(data.dir[0].rtt_ms.size()).arg(data.dir[1].rtt_ms.size()));
}

}  // namespace rudp::gui
