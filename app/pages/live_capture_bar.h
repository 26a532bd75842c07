// The summary of a running capture, above the result pages: the interface,
// filter and file, what has arrived (packets, packets/s, connections, drops,
// file size, time) and a Stop button.
#pragma once
#include <QElapsedTimer>
#include <QFrame>

class QLabel;
class QPushButton;

namespace rudp::gui {

struct LiveFrame;

class LiveCaptureBar : public QFrame {
  Q_OBJECT
 public:
  explicit LiveCaptureBar(QWidget* parent = nullptr);

  // Shows the bar for a capture starting on `iface`.
  void start(const QString& iface, const QString& filter, const QString& path);
  void setFrame(const LiveFrame& frame, double packetsPerSecond);
  // Stop was asked for: the file and the database are being completed.
  void setStopping();

  QString factsText() const;

 signals:
  void stopRequested();

 private:
  QLabel* m_title;
  QLabel* m_facts;
  QPushButton* m_stop;
  QElapsedTimer m_clock;
};

// "1,234 packets/s · drops 0 · 1.2 MB": the status bar's line.
QString liveStatusText(const LiveFrame& frame, double packetsPerSecond);

}  // namespace rudp::gui
