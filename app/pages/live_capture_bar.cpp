#include "pages/live_capture_bar.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>

#include "jobs/live_frame.h"

namespace rudp::gui {

namespace {

QString sizeText(uint64_t bytes) { return QLocale().formattedDataSize(qint64(bytes)); }

QString elapsedText(qint64 ms) {
  const qint64 s = ms / 1000;
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// dumpcap counts its drops when it stops.
QString dropsText(const LiveFrame& f) {
  if (!f.counters.drops_counted) return LiveCaptureBar::tr("drops counted at the end");
  return LiveCaptureBar::tr("%L1 dropped").arg(f.counters.kernel_drops + f.counters.interface_drops);
}

}  // namespace

LiveCaptureBar::LiveCaptureBar(QWidget* parent)
    : QFrame(parent), m_title(new QLabel(this)), m_facts(new QLabel(this)), m_stop(new QPushButton(this)) {
  setObjectName(QStringLiteral("live.bar"));
  setFrameShape(QFrame::StyledPanel);
  QFont bold = m_title->font();
  bold.setBold(true);
  m_title->setFont(bold);
  m_title->setObjectName(QStringLiteral("live.title"));
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_facts->setObjectName(QStringLiteral("live.facts"));
  m_stop->setObjectName(QStringLiteral("live.stop"));
  m_stop->setText(tr("Stop"));
  m_stop->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
  m_stop->setToolTip(tr("Stop the capture and open its file (Ctrl+E)"));
  connect(m_stop, &QPushButton::clicked, this, &LiveCaptureBar::stopRequested);

  auto* text = new QVBoxLayout;
  text->setSpacing(2);
  text->addWidget(m_title);
  text->addWidget(m_facts);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 6, 10, 6);
  layout->addLayout(text, 1);
  layout->addWidget(m_stop, 0, Qt::AlignVCenter);
  hide();
}

void LiveCaptureBar::start(const QString& iface, const QString& filter, const QString& path) {
  const QString what = filter.isEmpty() ? tr("everything") : filter;
  m_title->setText(tr("Capturing on %1 (%2) into %3").arg(iface, what, QFileInfo(path).fileName()));
  m_title->setToolTip(path);
  m_facts->setText(tr("Opening %1…").arg(iface));
  m_stop->setEnabled(true);
  m_clock.start();
  show();
}

void LiveCaptureBar::setFrame(const LiveFrame& f, double packetsPerSecond) {
  QStringList parts{
      tr("%L1 packets").arg(f.packets),
      tr("%L1 packets/s").arg(qint64(packetsPerSecond)),
      (f.connections.size() == 1 ? tr("1 connection") : tr("%L1 connections").arg(f.connections.size())),
      dropsText(f),
      sizeText(f.counters.bytes),
      elapsedText(m_clock.elapsed())};
  m_facts->setText(parts.join(QStringLiteral("  ·  ")));
}

void LiveCaptureBar::setStopping() {
  m_stop->setEnabled(false);
  m_facts->setText(m_facts->text() + QStringLiteral("  ·  ") + tr("stopping, completing the file…"));
}

QString LiveCaptureBar::factsText() const { return m_facts->text(); }

QString liveStatusText(const LiveFrame& f, double packetsPerSecond) {
  return QObject::tr("%L1 packets/s  ·  %2  ·  %3")
      .arg(qint64(packetsPerSecond))
      .arg(dropsText(f), sizeText(f.counters.bytes));
}

}  // namespace rudp::gui
