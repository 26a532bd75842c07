#include "widgets/display_filter_edit.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>

namespace rudp::gui {

namespace {

const char* const kRecentKey = "packets/recentDisplayFilters";

// Wireshark's filter entry colours.
const QColor kValid(0xaf, 0xff, 0xaf), kInvalid(0xff, 0xaf, 0xaf);

}  // namespace

DisplayFilterEdit::DisplayFilterEdit(QWidget* parent) : QLineEdit(parent), m_recentAction(new QAction(this)) {
  setObjectName(QStringLiteral("packets.filter"));
  setPlaceholderText(tr("Apply a display filter … <Ctrl-/>"));
  setClearButtonEnabled(true);
  m_recentAction->setObjectName(QStringLiteral("packets.recentFilters"));
  m_recentAction->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
  m_recentAction->setToolTip(tr("Recent display filters"));
  addAction(m_recentAction, QLineEdit::TrailingPosition);
  connect(m_recentAction, &QAction::triggered, this, &DisplayFilterEdit::showRecentMenu);
  connect(this, &QLineEdit::textChanged, this, &DisplayFilterEdit::recheck);
  connect(this, &QLineEdit::returnPressed, this, [this] {
    if (isValid()) emit applyRequested(text().trimmed());
  });
  setRecentFilters(QSettings().value(QLatin1String(kRecentKey)).toStringList());
}

void DisplayFilterEdit::setChecker(Checker checker) {
  m_checker = std::move(checker);
  recheck();
}

void DisplayFilterEdit::recheck() {
  m_problem.reset();
  if (m_checker && !text().trimmed().isEmpty()) m_problem = m_checker(text());
  QPalette p = QApplication::palette(this);
  if (!text().trimmed().isEmpty()) {
    p.setColor(QPalette::Base, m_problem ? kInvalid : kValid);
    p.setColor(QPalette::Text, Qt::black);  // readable on both in a dark theme too
  }
  setPalette(p);
  const QString message =
      m_problem ? tr("Column %1: %2").arg(m_problem->position + 1).arg(m_problem->message) : QString();
  setToolTip(message);
  emit problemChanged(message);
}

void DisplayFilterEdit::setRecentFilters(const QStringList& filters) {
  m_recent = filters.mid(0, kMaxRecent);
  m_recentAction->setEnabled(!m_recent.isEmpty());
}

void DisplayFilterEdit::remember(const QString& filter) {
  if (filter.isEmpty()) return;
  QStringList recent = m_recent;
  recent.removeAll(filter);
  recent.prepend(filter);
  setRecentFilters(recent);
  QSettings().setValue(QLatin1String(kRecentKey), m_recent);
}

void DisplayFilterEdit::showRecentMenu() {
  QMenu menu(this);
  for (const QString& f : m_recent)
    menu.addAction(f, this, [this, f] {
      setText(f);
      if (isValid()) emit applyRequested(f);
    });
  menu.exec(mapToGlobal(QPoint(0, height())));
}

}  // namespace rudp::gui
