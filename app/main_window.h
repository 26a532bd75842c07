// The rudpscope window (hotspot's shape): a stack of the start page, the
// analysis progress page, the result pages (Summary, Connections,
// Timeline, Statistics) and the Compare page, a message banner above them for errors and
// warnings, and a status bar with the capture's counts.
#pragma once
#include <QMainWindow>

#include "capture/live_capture.h"
#include "flow/connection.h"
#include "jobs/analysis_preferences.h"
#include "jobs/job_tracker.h"

class QStackedWidget;
class QTabWidget;

namespace rudp {
struct Problem;
}

namespace rudp::gui {

class AnalysisPage;
class AppActions;
class CaptureSession;
class ComparePage;
class ConnectionsPage;
class LiveCaptureController;
class Exporter;
class MessageBanner;
class PacketsPage;
class RecentFiles;
class StartPage;
class StatisticsPage;
class StatusCounts;
class SummaryPage;
class TimelinePage;
class WiresharkLauncher;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  enum Page { SummaryIndex, ConnectionsIndex, TimelineIndex, StatisticsIndex, PacketsIndex };

  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  void openCapture(const QString& path);
  // Help > Open Sample Capture: the capture shipped with rudpscope.
  void openSample();
  void reanalyse();
  void closeCapture();
  // Loads one more Lua dissector (kept in the preferences, listed in
  // Settings) and analyses the open capture again with it.
  void addDissectorScript(const QString& path);
  // Saves the preferences; re-analyses the open capture when they changed.
  void applyPreferences(const AnalysisPreferences& prefs);
  const AnalysisPreferences& preferences() const { return m_prefs; }
  // The command line's -X lua_script:FILE and -o name:value, added to the
  // saved preferences for this run only (as Wireshark's), not saved.
  void addRunPreferences(const QStringList& scripts, const QList<QPair<QString, QString>>& dissectorPrefs);
  void showPage(Page page);
  // A connection's place on the timeline (a problem, a stall).
  void showOnTimeline(int64_t conn, Direction dir, int64_t start_ns, int64_t end_ns, uint64_t frame);
  // The packets of `conn` within [start_ns, end_ns) (all by default) written
  // to a temporary pcapng and opened in Wireshark, `frame` selected.
  void openInWireshark(int64_t conn, int64_t start_ns = INT64_MIN, int64_t end_ns = INT64_MAX,
                       uint64_t frame = 0);
  // A problem's or a stall's packets of `conn`: its span [start_ns, end_ns)
  // with a second of context on each side, `frame` (its first packet) selected.
  void openSpanInWireshark(int64_t conn, int64_t start_ns, int64_t end_ns, uint64_t frame);
  // Tools > Open in Wireshark: what is on the Timeline when it is the current
  // page, else the connection selected on the Connections page.
  void openCurrentInWireshark();
  void showWiresharkDialog();
  // Capture > Start: the open capture closes, the Connections and Timeline
  // pages follow the capture, and at Stop its file opens as File > Open would.
  void startCapture(const rudp::LiveOptions& options);
  // View > Compare; the page also shows when it starts a comparison.
  void showCompare();

  CaptureSession& session() const { return *m_session; }
  AppActions& actions() const { return *m_actions; }
  MessageBanner* banner() const { return m_banner; }
  QTabWidget* resultPages() const { return m_tabs; }
  SummaryPage* summaryPage() const { return m_summary; }
  ConnectionsPage* connectionsPage() const { return m_connections; }
  TimelinePage* timelinePage() const { return m_timeline; }
  StatisticsPage* statisticsPage() const { return m_statistics; }
  AnalysisPage* analysisPage() const { return m_analysis; }
  StartPage* startPage() const { return m_start; }
  WiresharkLauncher* wiresharkLauncher() const { return m_wireshark; }
  LiveCaptureController* liveCapture() const { return m_live; }
  ComparePage* comparePage() const { return m_compare; }
  PacketsPage* packetsPage() const { return m_packets; }

 signals:
  // The summary and the connections of the open capture are on screen.
  void captureShown();
  // The capture asked for is not on screen: its analysis failed or was
  // cancelled; `text` is the one line the message banner shows.
  void captureNotShown(const QString& text);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  QWidget* createResultPages();
  void connectSession();
  void connectPages();
  void connectActions();
  void chooseCapture();
  void createDissector(qint64 conn);
  void showSettings();
  void onAnalysisStarted(const QString& capturePath);
  void onReady();
  void onFailed(const QString& capturePath, const QString& message);
  void onCancelled(const QString& capturePath);
  void followConnection(int64_t conn);
  void refreshStatistics();
  void resetPages();
  // The start page, with no capture open (the banner keeps its message).
  void showStartPage();
  void updateStatusBar();
  void updateTitle();
  void restoreWindowState();

  AnalysisPreferences m_prefs;
  CaptureSession* m_session;
  RecentFiles* m_recent;
  MessageBanner* m_banner;
  QStackedWidget* m_stack;
  StartPage* m_start;
  AnalysisPage* m_analysis;
  ComparePage* m_compare;
  QTabWidget* m_tabs = nullptr;
  SummaryPage* m_summary = nullptr;
  ConnectionsPage* m_connections = nullptr;
  TimelinePage* m_timeline = nullptr;
  StatisticsPage* m_statistics = nullptr;
  PacketsPage* m_packets = nullptr;
  AppActions* m_actions = nullptr;
  LiveCaptureController* m_live = nullptr;
  Exporter* m_exporter = nullptr;
  WiresharkLauncher* m_wireshark;
  StatusCounts* m_counts;
  JobTracker m_statisticsTracker;
  // The connection the Statistics page should show, and the one it asked for
  // (it loads only while visible).
  int64_t m_statisticsWanted = 0, m_statisticsRequested = 0;
};

}  // namespace rudp::gui
