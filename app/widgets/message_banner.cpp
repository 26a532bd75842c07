#include "widgets/message_banner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

#include "widgets/chart_colours.h"
#include "widgets/palette_theme.h"

namespace rudp::gui {

namespace {

QColor accent(MessageBanner::Kind kind) {
  switch (kind) {
    case MessageBanner::Kind::Information: return QColor(0x3d, 0xae, 0xe9);
    case MessageBanner::Kind::Warning: return QColor(0xf6, 0x74, 0x00);
    case MessageBanner::Kind::Error: return QColor(0xda, 0x44, 0x53);
  }
  return Qt::gray;
}

QStyle::StandardPixmap iconFor(MessageBanner::Kind kind) {
  switch (kind) {
    case MessageBanner::Kind::Information: return QStyle::SP_MessageBoxInformation;
    case MessageBanner::Kind::Warning: return QStyle::SP_MessageBoxWarning;
    case MessageBanner::Kind::Error: return QStyle::SP_MessageBoxCritical;
  }
  return QStyle::SP_MessageBoxInformation;
}

}  // namespace

MessageBanner::MessageBanner(QWidget* parent)
    : QFrame(parent),
      m_icon(new QLabel(this)),
      m_text(new QLabel(this)),
      m_action(new QToolButton(this)),
      m_close(new QToolButton(this)) {
  setObjectName(QStringLiteral("messageBanner"));
  m_text->setObjectName(QStringLiteral("messageBanner.text"));
  m_text->setWordWrap(true);
  m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_close->setAutoRaise(true);
  m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
  m_close->setToolTip(tr("Close"));
  connect(m_close, &QToolButton::clicked, this, &MessageBanner::dismiss);
  m_action->setObjectName(QStringLiteral("messageBanner.action"));
  m_action->hide();
  connect(m_action, &QToolButton::clicked, this, [this] {
    const std::function<void()> action = m_onAction;  // dismiss() forgets it
    dismiss();
    if (action) action();
  });

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 6, 6, 6);
  layout->addWidget(m_icon, 0, Qt::AlignTop);
  layout->addWidget(m_text, 1);
  layout->addWidget(m_action, 0, Qt::AlignTop);
  layout->addWidget(m_close, 0, Qt::AlignTop);
  setAutoFillBackground(true);
  hide();
}

void MessageBanner::showMessageWithAction(Kind kind, const QString& text, const QString& actionText,
                                          std::function<void()> action) {
  showMessage(kind, text);
  m_onAction = std::move(action);
  m_action->setText(actionText);
  m_action->show();
}

void MessageBanner::showMessage(Kind kind, const QString& text) {
  m_onAction = nullptr;
  m_action->hide();
  m_kind = kind;
  m_text->setText(text);
  m_icon->setPixmap(style()->standardIcon(iconFor(kind)).pixmap(20, 20));
  applyColours();
  show();
}

void MessageBanner::dismiss() {
  m_onAction = nullptr;
  m_action->hide();
  m_text->clear();
  hide();
}

QString MessageBanner::text() const { return isHidden() ? QString() : m_text->text(); }

void MessageBanner::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange && !isHidden()) applyColours();
  QFrame::changeEvent(event);
}

// A tint of the accent over the window colour, so the bar reads on light and
// dark palettes alike; the border is the accent itself.
void MessageBanner::applyColours() {
  const QColor base =
      parentWidget() ? parentWidget()->palette().color(QPalette::Window) : palette().color(QPalette::Window);
  const QColor tint = blend(base, accent(m_kind), ChartColours::isDark(palette()) ? 0.30 : 0.18);
  const QString sheet =
      QStringLiteral("#messageBanner { background: %1; border: 1px solid %2; border-radius: 4px; }")
          .arg(tint.name(), accent(m_kind).name());
  if (sheet != styleSheet()) setStyleSheet(sheet);  // a new sheet sends a palette change: no loop
}

}  // namespace rudp::gui
