#include "pages/analysis_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace rudp::gui {

namespace {

QString timeLeftText(double seconds) {
  if (seconds < 0) return {};
  const int s = int(std::ceil(seconds));
  if (s < 60) return QObject::tr("%1 s left").arg(s);
  return QObject::tr("%1 min %2 s left").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

AnalysisPage::AnalysisPage(QWidget* parent)
    : QWidget(parent),
      m_file(new QLabel(this)),
      m_bar(new QProgressBar(this)),
      m_detail(new QLabel(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)) {
  QFont font = m_file->font();
  font.setPointSizeF(font.pointSizeF() * 1.3);
  font.setBold(true);
  m_file->setFont(font);
  m_bar->setObjectName(QStringLiteral("analysis.progress"));
  m_bar->setRange(0, 1000);
  m_bar->setTextVisible(true);
  m_bar->setMinimumWidth(420);
  m_detail->setObjectName(QStringLiteral("analysis.detail"));
  m_detail->setForegroundRole(QPalette::PlaceholderText);
  m_cancel->setObjectName(QStringLiteral("analysis.cancel"));
  connect(m_cancel, &QPushButton::clicked, this, &AnalysisPage::cancelRequested);

  auto* column = new QVBoxLayout;
  column->addWidget(m_file);
  column->addWidget(m_bar);
  column->addWidget(m_detail);
  column->addWidget(m_cancel, 0, Qt::AlignRight);
  auto* outer = new QVBoxLayout(this);
  outer->addStretch(2);
  auto* row = new QHBoxLayout;
  row->addStretch(1);
  row->addLayout(column, 2);
  row->addStretch(1);
  outer->addLayout(row);
  outer->addStretch(3);
}

void AnalysisPage::start(const QString& capturePath) {
  m_file->setText(tr("Analysing %1").arg(QFileInfo(capturePath).fileName()));
  setProgress(IngestProgress{});
}

void AnalysisPage::setProgress(const IngestProgress& p) {
  if (p.fraction < 0) {
    m_bar->setRange(0, 0);  // busy indicator
  } else {
    m_bar->setRange(0, 1000);
    m_bar->setValue(int(p.fraction * 1000));
  }
  switch (p.phase) {
    case IngestProgress::Phase::Checking: m_detail->setText(tr("Checking for an earlier analysis…")); return;
    case IngestProgress::Phase::Finishing:
      m_detail->setText(tr("%L1 packets read; finishing the analysis…").arg(p.packets));
      return;
    case IngestProgress::Phase::Reading: break;
  }
  QStringList parts{tr("%L1 packets").arg(p.packets)};
  if (p.packets_per_second > 0) parts << tr("%L1 packets/s").arg(qint64(p.packets_per_second));
  if (p.seconds_left >= 0) parts << timeLeftText(p.seconds_left);
  m_detail->setText(parts.join(QStringLiteral("  ·  ")));
}

QString AnalysisPage::detailText() const { return m_detail->text(); }

}  // namespace rudp::gui
