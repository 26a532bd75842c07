#include "pages/statistics_charts.h"

#include <QGridLayout>

#include "models/record_text.h"
#include "models/rtt_histogram.h"
#include "models/value_text.h"
#include "widgets/cdf_chart.h"
#include "widgets/histogram_chart.h"

namespace rudp::gui {

namespace {
HistogramChart* histogram(const QString& name, const QString& x, const QString& y) {
  auto* chart = new HistogramChart;
  chart->setObjectName(name);
  chart->setAxisLabels(x, y);
  return chart;
}

// "RTT c→s (round trip)": what the samples measure matters for reading them.
QString rttTitle(const DirectionStatistics& s, Direction d) {
  QString title = QObject::tr("RTT %1").arg(directionShortName(d));
  if (s.rtt.samples && s.rtt.span != ana::RttSpan::Unknown)
    title += QStringLiteral(" (%1)").arg(analysisWords(ana::toString(s.rtt.span)));
  return title;
}

// "RTT (ms), 3 samples > 160.0 ms not drawn": what the bars leave out.
QString rttAxisLabel(const RttHistogramPlan& plan) {
  if (!plan.beyond) return QObject::tr("RTT (ms)");
  return QObject::tr("RTT (ms), %1 %2 > %3 ms not drawn")
      .arg(plan.beyond)
      .arg(plan.beyond == 1 ? QObject::tr("sample") : QObject::tr("samples"), msText(plan.cutoff));
}
}  // namespace

StatisticsCharts::StatisticsCharts(QWidget* parent) : QWidget(parent), m_cdf(new CdfChart) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    const int i = static_cast<int>(d);
    const QString dir = i == 0 ? QStringLiteral("c2s") : QStringLiteral("s2c");
    m_rtt[i] = histogram(QStringLiteral("statistics.rttHistogram.") + dir, tr("RTT (ms)"), tr("samples"));
    m_bursts[i] =
        histogram(QStringLiteral("statistics.lossBursts.") + dir, tr("burst length (packets)"), tr("bursts"));
    grid->addWidget(m_rtt[i], 0, i);
    grid->addWidget(m_bursts[i], 1, i);
  }
  m_cdf->setObjectName(QStringLiteral("statistics.rttCdf"));
  m_cdf->setTitle(tr("RTT CDF"));
  m_cdf->setAxisLabel(tr("RTT (ms)"));
  grid->addWidget(m_cdf, 0, 2, 2, 1);
  for (int c = 0; c < 3; ++c) grid->setColumnStretch(c, 1);
}

void StatisticsCharts::setDirection(const StatisticsData& data, Direction d) {
  const DirectionStatistics& s = data.of(d);
  const int i = static_cast<int>(d);
  const RttHistogramPlan plan = planRttHistogram(s.rtt_ms);
  m_rtt[i]->setTitle(rttTitle(s, d));
  m_rtt[i]->setAxisLabels(rttAxisLabel(plan), tr("samples"));
  m_rtt[i]->setBins(binsOfValues(plan.shown, plan.width));
  m_bursts[i]->setTitle(tr("Loss bursts %1").arg(directionShortName(d)));
  m_bursts[i]->setBins(binsOfCounts(s.loss_bursts));
  if (data.conn != 0) m_cdf->addSeries(directionShortName(d), s.rtt_ms);
}

void StatisticsCharts::setData(const StatisticsData& data) {
  m_cdf->clear();
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) setDirection(data, d);
}

}  // namespace rudp::gui
