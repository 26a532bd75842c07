#include "status_counts.h"

#include <QLabel>
#include <QStatusBar>

#include "jobs/capture_overview.h"
#include "models/value_text.h"

namespace rudp::gui {

StatusCounts::StatusCounts(QStatusBar* bar)
    : QObject(bar), m_packets(new QLabel), m_connections(new QLabel), m_problems(new QLabel) {
  m_packets->setObjectName(QStringLiteral("status.packets"));
  m_connections->setObjectName(QStringLiteral("status.connections"));
  m_problems->setObjectName(QStringLiteral("status.problems"));
  for (QLabel* label : {m_packets, m_connections, m_problems}) bar->addPermanentWidget(label);
}

void StatusCounts::show(const CaptureOverview* o) {
  m_packets->setText(o ? tr("Packets: %1").arg(countText(o->capture.packet_count)) : QString());
  m_connections->setText(o ? tr("Connections: %1").arg(countText(o->connections.size())) : QString());
  m_problems->setText(o ? tr("Problems: %1").arg(countText(o->problems.size())) : QString());
  for (QLabel* label : {m_packets, m_connections, m_problems}) label->setVisible(o != nullptr);
}

}  // namespace rudp::gui
