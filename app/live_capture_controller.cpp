#include "live_capture_controller.h"

#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>
#include <utility>

#include "app_actions.h"
#include "capture_dialog.h"
#include "jobs/live_capture_job.h"
#include "main_window.h"
#include "pages/connections_page.h"
#include "pages/live_capture_bar.h"
#include "pages/timeline_page.h"
#include "session/live_view.h"
#include "widgets/message_banner.h"

namespace rudp::gui {

namespace {

LiveFrame buildFrame(const std::shared_ptr<rudp::LiveView>& view, const std::vector<double>& rttLimits) {
  QElapsedTimer clock;
  clock.start();
  LiveFrame frame = makeLiveFrame(view->snapshot(), rttLimits);
  frame.buildMs = double(clock.nsecsElapsed()) / 1e6;
  return frame;
}

double ms(const QElapsedTimer& t) { return double(t.nsecsElapsed()) / 1e6; }

}  // namespace

LiveCaptureController::LiveCaptureController(MainWindow& window)
    : QObject(&window),
      m_window(window),
      m_bar(new LiveCaptureBar),
      m_status(new QLabel),
      m_looks(new JobRunner(1, QStringLiteral("rudp-live-view"), this)) {
  qRegisterMetaType<LiveFrame>();
  m_status->setObjectName(QStringLiteral("status.live"));
  m_status->hide();
  window.statusBar()->addPermanentWidget(m_status);
  m_timer.setInterval(kPollMs);
  connect(&m_timer, &QTimer::timeout, this, &LiveCaptureController::poll);
  connect(m_bar, &LiveCaptureBar::stopRequested, this, &LiveCaptureController::stop);
  connect(window.timelinePage(), &TimelinePage::connectionChanged, this, &LiveCaptureController::watch);
}

LiveCaptureController::~LiveCaptureController() {
  m_tracker.invalidate();
  delete m_job;  // stops and waits: the file and the database are completed
  m_looks->waitForDone();
}

void LiveCaptureController::chooseAndStart() {
  if (capturing()) return;
  auto* dialog = new CaptureDialog(&m_window);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog] { m_window.startCapture(dialog->options()); });
  dialog->open();
}

void LiveCaptureController::start(const rudp::LiveOptions& options, const AnalysisPreferences& prefs) {
  if (capturing()) return;
  m_rttLimits.assign(prefs.rtt_limits_ms.begin(), prefs.rtt_limits_ms.end());
  m_path = QString::fromStdString(options.output);
  m_job = new LiveCaptureJob({options, {}, prefs}, this);
  connect(m_job, &LiveCaptureJob::capturing, this, &LiveCaptureController::started);
  connect(m_job, &LiveCaptureJob::finished, this, [this](const QString& path, const QString&) {
    end();
    emit finished(path);
  });
  connect(m_job, &LiveCaptureJob::failed, this, &LiveCaptureController::fail);

  rudp::AnalysisSettings settings;
  settings.stall_ms = prefs.stall_ms;
  settings.rtt_limits_ms = m_rttLimits;
  m_window.connectionsPage()->setData({}, settings, {});
  setCapturing(true);
  m_bar->start(QString::fromStdString(options.interface), QString::fromStdString(options.filter), m_path);
  m_status->clear();
  m_status->show();
  m_rate = {};
  m_stats = {};
  m_last.reset();
  m_clock.start();
  m_sinceFrame.invalidate();
  m_tickMissed = false;
  m_timer.start();
  m_job->start();
  m_window.showPage(MainWindow::ConnectionsIndex);
  m_window.setWindowTitle(tr("Capturing on %1 — rudpscope").arg(QString::fromStdString(options.interface)));
}

void LiveCaptureController::stop() {
  if (!m_job || m_job->stopping()) return;
  m_job->stop();
  m_bar->setStopping();
}

void LiveCaptureController::watch(int64_t conn) {
  if (m_job) m_job->view()->watch(conn);
}

void LiveCaptureController::poll() {
  if (!m_job) return;
  // One look at a time, from poll() until its frame reaches this thread.
  if (m_tracker.isRunning()) {
    m_tickMissed = true;
    ++m_stats.ticksWhileLooking;
    return;
  }
  m_looks->run(
      m_tracker, [view = m_job->view(), limits = m_rttLimits] { return buildFrame(view, limits); },
      [this](const LiveFrame& frame) {
        apply(frame);
        // A tick that came while this look ran is taken now, not skipped: on
        // a busy machine skipping would halve the update rate.
        if (std::exchange(m_tickMissed, false)) poll();
      },
      [this](const QString& error) {
        m_window.banner()->showMessage(MessageBanner::Kind::Warning,
                                       tr("The live view could not be updated: %1").arg(error));
      });
}

void LiveCaptureController::apply(const LiveFrame& frame) {
  QElapsedTimer clock;
  clock.start();
  const double pps =
      m_rate.update({frame.counters.bytes, 0, frame.packets, 0}, ms(m_clock) / 1000).packets_per_second;
  m_bar->setFrame(frame, pps);
  m_status->setText(liveStatusText(frame, pps));
  const bool fresh = !m_last || frame.generation != m_last->generation;
  m_last = frame;
  if (!fresh) {
    ++m_stats.looksWithoutNews;
    return;
  }
  m_window.connectionsPage()->updateData(frame.connections);
  TimelinePage* timeline = m_window.timelinePage();
  timeline->setLiveConnections(frame.connections);
  timeline->setLiveData(frame.timeline);
  if (m_sinceFrame.isValid()) m_stats.maxIntervalMs = std::max(m_stats.maxIntervalMs, ms(m_sinceFrame));
  m_sinceFrame.start();
  ++m_stats.frames;
  m_stats.maxBuildMs = std::max(m_stats.maxBuildMs, frame.buildMs);
  m_stats.maxApplyMs = std::max(m_stats.maxApplyMs, ms(clock));
  emit frameShown();
}

// The job reported its end: it is deleted later (its worker has returned).
void LiveCaptureController::end() {
  m_timer.stop();
  m_tracker.invalidate();
  m_job->deleteLater();
  m_job = nullptr;
  m_bar->hide();
  m_status->hide();
  setCapturing(false);
}

// An error ends the capture; whatever it wrote before opens like a stopped
// capture's file, with the error above it.
void LiveCaptureController::fail(const QString& message, bool captured) {
  const QString path = captured && QFileInfo(m_path).isFile() ? m_path : QString();
  end();
  const QString text = tr("Capture failed: %1").arg(message);
  MessageBanner* banner = m_window.banner();
  if (path.isEmpty()) {
    m_window.closeCapture();
    banner->showMessage(MessageBanner::Kind::Error, text);
    emit notCaptured(text);
    return;
  }
  connect(
      &m_window, &MainWindow::captureShown, banner,
      [banner, text] { banner->showMessage(MessageBanner::Kind::Error, text); }, Qt::SingleShotConnection);
  emit finished(path);
}

// While capturing: Stop holds Ctrl+E, the Timeline takes live data, and only
// the Connections and Timeline pages have something to show.
void LiveCaptureController::setCapturing(bool on) {
  m_window.actions().setCapturing(on);
  m_window.timelinePage()->setLive(on);
  QTabWidget* tabs = m_window.resultPages();
  for (auto page : {MainWindow::SummaryIndex, MainWindow::StatisticsIndex, MainWindow::PacketsIndex})
    tabs->setTabEnabled(page, !on);
  for (auto page : {MainWindow::ConnectionsIndex, MainWindow::TimelineIndex})
    m_window.actions().pages[page]->setEnabled(on);
}

}  // namespace rudp::gui
