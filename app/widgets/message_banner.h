// A coloured bar above the pages that says what went wrong (or what to keep in
// mind, such as a truncated capture) in the window itself, the way
// KMessageWidget does in KDE tools: text, an optional action, a close button.
#pragma once
#include <QFrame>
#include <functional>

#include "models/message_kind.h"

class QLabel;
class QToolButton;

namespace rudp::gui {

class MessageBanner : public QFrame {
  Q_OBJECT
 public:
  using Kind = MessageKind;

  explicit MessageBanner(QWidget* parent = nullptr);

  void showMessage(Kind kind, const QString& text);
  // With a button that runs `action` (and closes the banner).
  void showMessageWithAction(Kind kind, const QString& text, const QString& actionText,
                             std::function<void()> action);
  // Clears and hides the banner.
  void dismiss();
  Kind kind() const { return m_kind; }
  QString text() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void applyColours();

  Kind m_kind = Kind::Information;
  QLabel* m_icon;
  QLabel* m_text;
  QToolButton* m_action;
  QToolButton* m_close;
  std::function<void()> m_onAction;
};

}  // namespace rudp::gui
