#include "pages/start_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace rudp::gui {

StartPage::StartPage(QWidget* parent) : QWidget(parent), m_recent(new QListWidget(this)) {
  auto* title = new QLabel(tr("rudpscope"), this);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 2.0);
  titleFont.setBold(true);
  title->setFont(titleFont);
  auto* subtitle = new QLabel(
      tr("RTT, retransmissions, loss and stalls of game reliable-UDP connections, from a capture."), this);
  subtitle->setForegroundRole(QPalette::PlaceholderText);

  auto* open = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open Capture…"), this);
  open->setObjectName(QStringLiteral("start.open"));
  open->setDefault(true);
  connect(open, &QPushButton::clicked, this, &StartPage::openRequested);
  auto* sample = new QPushButton(tr("Open Sample Capture"), this);
  sample->setObjectName(QStringLiteral("start.sample"));
  sample->setToolTip(tr("The capture shipped with rudpscope: a stall, retransmissions and losses"));
  connect(sample, &QPushButton::clicked, this, &StartPage::sampleRequested);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(open);
  buttons->addWidget(sample);
  buttons->addStretch(1);
  auto* hint = new QLabel(tr("or drop a pcap / pcapng file on this window (Ctrl+O)"), this);
  hint->setForegroundRole(QPalette::PlaceholderText);

  auto* recentTitle = new QLabel(tr("Recent captures"), this);
  QFont bold = recentTitle->font();
  bold.setBold(true);
  recentTitle->setFont(bold);
  m_recent->setObjectName(QStringLiteral("start.recent"));
  m_recent->setMaximumWidth(720);
  m_recent->setCursor(Qt::PointingHandCursor);
  connect(m_recent, &QListWidget::itemClicked, this,
          [this](QListWidgetItem* item) { emit recentFileRequested(item->data(Qt::UserRole).toString()); });

  auto* column = new QVBoxLayout;
  column->addWidget(title);
  column->addWidget(subtitle);
  column->addSpacing(24);
  column->addLayout(buttons);
  column->addWidget(hint);
  column->addSpacing(24);
  column->addWidget(recentTitle);
  column->addWidget(m_recent, 1);

  auto* outer = new QHBoxLayout(this);
  outer->setContentsMargins(48, 40, 48, 40);
  outer->addLayout(column, 3);
  outer->addStretch(1);
}

void StartPage::setRecentFiles(const QStringList& paths) {
  m_recent->clear();
  for (const QString& path : paths) {
    const QFileInfo info(path);
    auto* item =
        new QListWidgetItem(style()->standardIcon(QStyle::SP_FileIcon),
                            info.fileName() + QStringLiteral("  —  ") + info.absolutePath(), m_recent);
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
  }
  if (paths.isEmpty()) {
    auto* none = new QListWidgetItem(tr("None yet"), m_recent);
    none->setFlags(Qt::NoItemFlags);
  }
}

}  // namespace rudp::gui
