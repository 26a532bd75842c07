// Wireshark's display filter entry: checked as you type, green when the
// filter is valid, red when not (the message, with the column of the
// problem, as the tooltip and in problemChanged); Enter applies a valid one.
// Recent filters drop down from the button at its right.
#pragma once
#include <QLineEdit>
#include <QStringList>
#include <functional>
#include <optional>

class QAction;

namespace rudp::gui {

class DisplayFilterEdit : public QLineEdit {
  Q_OBJECT
 public:
  struct Problem {
    QString message;
    int position = 0;  // 0-based character
  };
  using Checker = std::function<std::optional<Problem>(const QString&)>;
  static constexpr int kMaxRecent = 20;

  explicit DisplayFilterEdit(QWidget* parent = nullptr);

  void setChecker(Checker checker);
  // nullopt when the text is a valid filter (an empty one is).
  std::optional<Problem> problem() const { return m_problem; }
  bool isValid() const { return !m_problem; }
  QStringList recentFilters() const { return m_recent; }
  void setRecentFilters(const QStringList& filters);
  // Puts `filter` first in the recent list (and the settings).
  void remember(const QString& filter);

 signals:
  void applyRequested(const QString& filter);
  void problemChanged(const QString& message);  // empty when valid

 private:
  void recheck();
  void showRecentMenu();

  Checker m_checker;
  std::optional<Problem> m_problem;
  QStringList m_recent;
  QAction* m_recentAction;
};

}  // namespace rudp::gui
