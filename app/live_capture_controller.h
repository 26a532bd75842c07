// Capture > Start and Stop in the window: runs a LiveCaptureJob, looks at its
// LiveView every kPollMs (the copy and the conversion to rows and a timeline
// run on a pool thread, one at a time, so the window never waits), and shows
// what it finds in the live bar (the summary), the status bar, the
// Connections page and the chosen connection's Timeline. When the capture
// stops its file is opened through the normal path (its database is
// complete, so it is reused).
#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <optional>

#include "capture/live_capture.h"
#include "jobs/analysis_preferences.h"
#include "jobs/job_runner.h"
#include "jobs/live_frame.h"
#include "jobs/progress_rate.h"
#include "pages/live_capture_bar.h"

class QLabel;

namespace rudp::gui {

class LiveCaptureJob;
class MainWindow;

class LiveCaptureController : public QObject {
  Q_OBJECT
 public:
  static constexpr int kPollMs = 150;  // > 6 updates a second

  // What the window's updates cost, measured while capturing.
  struct Stats {
    int frames = 0;             // frames with new data put on screen
    double maxBuildMs = 0;      // snapshot + rows + timeline, on the pool thread
    double maxApplyMs = 0;      // putting one frame on screen, on the UI thread
    double maxIntervalMs = 0;   // longest time between two frames shown (after the first)
    int looksWithoutNews = 0;   // looks that found nothing published since the last
    int ticksWhileLooking = 0;  // timer ticks that came while a look still ran
  };

  explicit LiveCaptureController(MainWindow& window);
  ~LiveCaptureController() override;

  LiveCaptureBar* bar() const { return m_bar; }
  bool capturing() const { return m_job != nullptr; }
  QString capturePath() const { return m_path; }
  const Stats& stats() const { return m_stats; }
  const std::optional<LiveFrame>& lastFrame() const { return m_last; }

  // The Start Capture dialog; its choice starts through MainWindow::startCapture.
  void chooseAndStart();
  void start(const rudp::LiveOptions& options, const AnalysisPreferences& prefs);
  void stop();

 signals:
  void started();     // the interface is open
  void frameShown();  // a frame with new data is on screen
  // The capture stopped (or broke off after packets arrived: the error is
  // in the banner once the file is on screen); its file is complete.
  void finished(const QString& capturePath);
  // Nothing was captured: `text` is the one line the banner shows.
  void notCaptured(const QString& text);

 private:
  void poll();
  void apply(const LiveFrame& frame);
  void end();
  void fail(const QString& message, bool captured);
  void setCapturing(bool on);
  void watch(int64_t conn);

  MainWindow& m_window;
  LiveCaptureBar* m_bar;
  QLabel* m_status;
  QTimer m_timer;
  LiveCaptureJob* m_job = nullptr;
  QString m_path;
  JobRunner* m_looks;         // builds the frames off the UI thread
  JobTracker m_tracker;       // the look running: from poll() to its frame
  bool m_tickMissed = false;  // the timer fired while a look was running
  std::vector<double> m_rttLimits;
  ProgressRate m_rate;
  QElapsedTimer m_clock, m_sinceFrame;
  std::optional<LiveFrame> m_last;
  Stats m_stats;
};

}  // namespace rudp::gui
