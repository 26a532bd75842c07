#include "main_window.h"

#include <QAbstractItemView>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "app_actions.h"
#include "bundled_sample.h"
#include "dissector_from_flow.h"
#include "exporter.h"
#include "help_dialogs.h"
#include "jobs/capture_session.h"
#include "jobs/wireshark_launcher.h"
#include "live_capture_controller.h"
#include "models/record_text.h"
#include "pages/analysis_page.h"
#include "pages/compare_page.h"
#include "pages/connections_page.h"
#include "pages/packets_page.h"
#include "pages/start_page.h"
#include "pages/statistics_page.h"
#include "pages/summary_page.h"
#include "pages/timeline_page.h"
#include "recent_files.h"
#include "settings_dialog.h"
#include "status_counts.h"
#include "widgets/message_banner.h"
#include "wireshark_dialog.h"

namespace rudp::gui {

namespace {

enum StackIndex { StartStack, AnalysisStack, ResultsStack, CompareStack };

const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kStateKey = QStringLiteral("window/state");
// A packet shown on the timeline from the Packets page: half a second each side.
constexpr int64_t kPacketContextNs = 500'000'000;

QString fileName(const QString& path) { return QFileInfo(path).fileName(); }

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_session(new CaptureSession(this)),
      m_recent(new RecentFiles(this)),
      m_banner(new MessageBanner),
      m_stack(new QStackedWidget),
      m_start(new StartPage),
      m_analysis(new AnalysisPage),
      m_compare(new ComparePage),
      m_wireshark(new WiresharkLauncher(this)),
      m_counts(new StatusCounts(statusBar())) {
  QSettings settings;
  m_prefs = AnalysisPreferences::load(settings);
  m_compare->setPreferences(m_prefs);
  setAcceptDrops(true);

  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  auto* bannerBox = new QVBoxLayout;
  bannerBox->setContentsMargins(8, 8, 8, 0);
  bannerBox->addWidget(m_banner);
  layout->addLayout(bannerBox);
  layout->addWidget(m_stack, 1);
  m_stack->addWidget(m_start);
  m_stack->addWidget(m_analysis);
  m_stack->addWidget(createResultPages());
  m_stack->addWidget(m_compare);
  setCentralWidget(central);

  m_actions = new AppActions(
      this, {tr("Summary"), tr("Connections"), tr("Timeline"), tr("Statistics"), tr("Packets")});
  m_live = new LiveCaptureController(*this);
  bannerBox->addWidget(m_live->bar());
  m_exporter = new Exporter(this);

  connectSession();
  connectPages();
  connectActions();
  m_start->setRecentFiles(m_recent->files());
  m_actions->setRecentFiles(m_recent->files());
  m_actions->cancel->setEnabled(false);
  restoreWindowState();
  updateTitle();
  updateStatusBar();
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::createResultPages() {
  m_tabs = new QTabWidget;
  m_tabs->setObjectName(QStringLiteral("resultPages"));
  m_tabs->setDocumentMode(true);
  m_summary = new SummaryPage;
  m_tabs->addTab(m_summary, tr("Summary"));
  m_connections = new ConnectionsPage;
  m_tabs->addTab(m_connections, tr("Connections"));
  m_timeline = new TimelinePage(*m_session);
  m_tabs->addTab(m_timeline, tr("Timeline"));
  m_statistics = new StatisticsPage;
  m_tabs->addTab(m_statistics, tr("Statistics"));
  m_packets = new PacketsPage;
  m_tabs->addTab(m_packets, tr("Packets"));
  return m_tabs;
}

void MainWindow::connectSession() {
  connect(m_session, &CaptureSession::analysisStarted, this, &MainWindow::onAnalysisStarted);
  connect(m_session, &CaptureSession::progressed, m_analysis, &AnalysisPage::setProgress);
  connect(m_session, &CaptureSession::ready, this, &MainWindow::onReady);
  connect(m_session, &CaptureSession::failed, this, &MainWindow::onFailed);
  connect(m_session, &CaptureSession::cancelled, this, &MainWindow::onCancelled);
}

void MainWindow::connectPages() {
  connect(m_start, &StartPage::openRequested, this, &MainWindow::chooseCapture);
  connect(m_start, &StartPage::sampleRequested, this, &MainWindow::openSample);
  connect(m_start, &StartPage::recentFileRequested, this, &MainWindow::openCapture);
  connect(m_analysis, &AnalysisPage::cancelRequested, m_session, &CaptureSession::cancel);
  connect(m_summary, &SummaryPage::problemActivated, this, [this](const Problem& p) {
    if (p.conn == 0) {
      statusBar()->showMessage(tr("This is about the capture as a whole: it has no place on a timeline."),
                               6000);
      return;
    }
    showOnTimeline(p.conn, p.dir, p.start_ns, p.end_ns, p.frame);
  });
  // Selecting a connection makes it the one the Timeline and Statistics
  // pages show; a double click also goes to the timeline.
  connect(m_connections, &ConnectionsPage::connectionActivated, m_timeline, &TimelinePage::showConnection);
  connect(m_connections, &ConnectionsPage::createDissectorRequested, this, &MainWindow::createDissector);
  connect(m_connections->table(), &QAbstractItemView::doubleClicked, this,
          [this] { showPage(TimelineIndex); });
  connect(m_statistics, &StatisticsPage::stallActivated, this,
          [this](qint64 conn, Direction dir, qint64 start_ns, qint64 end_ns) {
            showOnTimeline(conn, dir, start_ns, end_ns, 0);
          });
  connect(m_timeline, &TimelinePage::connectionChanged, this, &MainWindow::followConnection);
  // A packet chosen on one page is the selected one on the other.
  connect(m_timeline, &TimelinePage::packetShown, m_packets, &PacketsPage::goToFrame);
  connect(m_packets, &PacketsPage::showOnTimelineRequested, this,
          [this](qint64 conn, Direction dir, qint64 ts_ns, quint64 frame) {
            showOnTimeline(conn, dir, ts_ns - kPacketContextNs, ts_ns + kPacketContextNs, frame);
          });
  connect(m_connections, &ConnectionsPage::openInWiresharkRequested, this,
          [this](qint64 conn) { openInWireshark(conn); });
  connect(m_timeline, &TimelinePage::openInWiresharkRequested, this, &MainWindow::openInWireshark);
  connect(m_summary, &SummaryPage::openInWiresharkRequested, this, &MainWindow::openSpanInWireshark);
  connect(m_statistics, &StatisticsPage::openInWiresharkRequested, this, &MainWindow::openSpanInWireshark);
  connect(m_wireshark, &WiresharkLauncher::message, m_banner, &MessageBanner::showMessage);
  connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::refreshStatistics);
  connect(m_recent, &RecentFiles::changed, m_start, &StartPage::setRecentFiles);
  connect(m_recent, &RecentFiles::changed, m_actions, &AppActions::setRecentFiles);
}

void MainWindow::connectActions() {
  connect(m_actions->open, &QAction::triggered, this, &MainWindow::chooseCapture);
  connect(m_actions->close, &QAction::triggered, this, &MainWindow::closeCapture);
  connect(m_actions->reanalyse, &QAction::triggered, this, &MainWindow::reanalyse);
  connect(m_actions->cancel, &QAction::triggered, m_session, &CaptureSession::cancel);
  connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
  connect(m_actions->startCapture, &QAction::triggered, m_live, &LiveCaptureController::chooseAndStart);
  connect(m_actions->stopCapture, &QAction::triggered, m_live, &LiveCaptureController::stop);
  connect(m_live, &LiveCaptureController::finished, this, &MainWindow::openCapture);
  connect(m_live, &LiveCaptureController::notCaptured, this, &MainWindow::captureNotShown);
  connect(m_actions->settings, &QAction::triggered, this, &MainWindow::showSettings);
  connect(m_actions->openSample, &QAction::triggered, this, &MainWindow::openSample);
  connect(m_actions->help, &QAction::triggered, this, [this] { showHelpDialog(this); });
  connect(m_actions->about, &QAction::triggered, this, [this] { showAboutDialog(this); });
  connect(m_actions->exportPng, &QAction::triggered, m_exporter,
          [this] { m_exporter->exportChart(Exporter::Png); });
  connect(m_actions->exportSvg, &QAction::triggered, m_exporter,
          [this] { m_exporter->exportChart(Exporter::Svg); });
  connect(m_actions->exportCsv, &QAction::triggered, m_exporter, &Exporter::exportTable);
  connect(m_actions->exportReport, &QAction::triggered, m_exporter, &Exporter::exportReport);
  connect(m_actions->openInWireshark, &QAction::triggered, this, &MainWindow::openCurrentInWireshark);
  connect(m_actions->installDissectors, &QAction::triggered, this, &MainWindow::showWiresharkDialog);
  for (int i = 0; i < m_actions->pages.size(); ++i)
    connect(m_actions->pages[i], &QAction::triggered, this, [this, i] { showPage(Page(i)); });
  connect(m_actions, &AppActions::recentFileChosen, this, &MainWindow::openCapture);
  connect(m_actions->compare, &QAction::triggered, this, &MainWindow::showCompare);
  connect(m_actions->openCaptureSet, &QAction::triggered, m_compare, &ComparePage::chooseFolder);
  connect(m_actions->compareWith, &QAction::triggered, this,
          [this] { m_compare->chooseCapturesToAdd(m_session->capturePath()); });
  connect(m_compare, &ComparePage::comparisonStarted, this, &MainWindow::showCompare);
  connect(m_actions, &AppActions::clearRecentChosen, m_recent, &RecentFiles::clear);
}

void MainWindow::openCapture(const QString& path) {
  if (path.isEmpty() || m_live->capturing()) return;  // nothing else opens while capturing
  m_session->open(path, m_prefs);
}

void MainWindow::openSample() { openCapture(bundledSamplePath()); }

void MainWindow::reanalyse() {
  if (!m_session->capturePath().isEmpty()) m_session->open(m_session->capturePath(), m_prefs, false);
}

void MainWindow::closeCapture() {
  m_session->close();
  resetPages();
  m_banner->dismiss();
  showStartPage();
}

void MainWindow::showStartPage() {
  m_stack->setCurrentIndex(StartStack);
  m_actions->setCaptureOpen(false);
  m_actions->cancel->setEnabled(false);
  updateTitle();
  updateStatusBar();
}

void MainWindow::applyPreferences(const AnalysisPreferences& prefs) {
  if (prefs == m_prefs) return;
  m_prefs = prefs;
  m_compare->setPreferences(m_prefs);
  QSettings settings;
  m_prefs.save(settings);
  // Dissector options are not recorded in the database, so any change
  // analyses again rather than trusting a matching database.
  if (!m_session->capturePath().isEmpty()) m_session->open(m_session->capturePath(), m_prefs, false);
}

void MainWindow::addRunPreferences(const QStringList& scripts,
                                   const QList<QPair<QString, QString>>& dissectorPrefs) {
  for (const QString& script : scripts)
    if (!m_prefs.extra_scripts.contains(script)) m_prefs.extra_scripts << script;
  for (const auto& pref : dissectorPrefs) {
    m_prefs.dissector_prefs.removeIf([&](const auto& p) { return p.first == pref.first; });
    m_prefs.dissector_prefs << pref;
  }
  m_compare->setPreferences(m_prefs);
}

void MainWindow::addDissectorScript(const QString& path) {
  AnalysisPreferences prefs = m_prefs;
  if (!prefs.extra_scripts.contains(path)) prefs.extra_scripts << path;
  applyPreferences(prefs);
}

// Connections > "Create Dissector from This Flow…".
void MainWindow::createDissector(qint64 conn) {
  const CaptureOverview* overview = m_session->overview();
  if (!overview) return;
  for (const ConnectionRecord& r : overview->connections)
    if (r.summary.id == conn) {
      const QString path = createDissectorFromFlow(this, r, m_session->capturePath());
      if (!path.isEmpty()) addDissectorScript(path);
      return;
    }
}

void MainWindow::showPage(Page page) {
  const bool ready = m_session->state() == CaptureSession::State::Ready;
  if (m_stack->currentIndex() == CompareStack && ready) m_stack->setCurrentIndex(ResultsStack);
  if (m_stack->currentIndex() == ResultsStack) m_tabs->setCurrentIndex(page);
}

void MainWindow::showCompare() { m_stack->setCurrentIndex(CompareStack); }

void MainWindow::showOnTimeline(int64_t conn, Direction dir, int64_t start_ns, int64_t end_ns,
                                uint64_t frame) {
  m_timeline->showRange(conn, dir, start_ns, end_ns, frame);  // before the page shows: one load
  showPage(TimelineIndex);
}

void MainWindow::openInWireshark(int64_t conn, int64_t start_ns, int64_t end_ns, uint64_t frame) {
  if (m_session->state() != CaptureSession::State::Ready || conn == 0) return;
  m_wireshark->open(WiresharkRequest::forConnection(*m_session, conn, {start_ns, end_ns}, frame));
}

void MainWindow::openSpanInWireshark(int64_t conn, int64_t start_ns, int64_t end_ns, uint64_t frame) {
  constexpr int64_t kContextNs = 1'000'000'000;
  openInWireshark(conn, start_ns - kContextNs, end_ns + kContextNs, frame);
}

void MainWindow::openCurrentInWireshark() {
  if (m_tabs->currentWidget() == m_timeline) return m_timeline->requestOpenInWireshark();
  const int64_t conn =
      m_connections->selectedConnection() ? m_connections->selectedConnection() : m_timeline->connection();
  if (conn == 0)
    return m_banner->showMessage(MessageBanner::Kind::Information,
                                 tr("Choose a connection to open in Wireshark first."));
  openInWireshark(conn);
}

void MainWindow::showWiresharkDialog() {
  auto* dialog = new WiresharkDialog(this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->open();
}

void MainWindow::startCapture(const rudp::LiveOptions& options) {
  if (m_live->capturing()) return;
  closeCapture();
  m_stack->setCurrentIndex(ResultsStack);
  m_live->start(options, m_prefs);
}

void MainWindow::followConnection(int64_t conn) {
  m_connections->selectConnection(conn);
  m_statisticsWanted = conn;
  refreshStatistics();
}

void MainWindow::refreshStatistics() {
  if (!m_statistics->isVisible() || m_statisticsWanted == m_statisticsRequested) return;
  const int64_t conn = m_statisticsRequested = m_statisticsWanted;
  m_session->queries().run(
      m_statisticsTracker, m_session->dbPath(),
      [conn](StoreReader& r) { return rudp::gui::loadStatistics(r, conn); },
      [this](StatisticsData data) { m_statistics->setData(std::move(data)); },
      [this](const QString& message) { statusBar()->showMessage(tr("Statistics: %1").arg(message), 8000); });
}

void MainWindow::chooseCapture() {
  const QString dir =
      m_recent->files().isEmpty() ? QString() : QFileInfo(m_recent->files().first()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Capture"), dir,
      tr("Captures (*.pcap *.pcapng *.cap *.dmp *.snoop *.gz *.zst);;All files (*)"));
  openCapture(path);
}

void MainWindow::showSettings() {
  auto* dialog = new SettingsDialog(m_prefs, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog] { applyPreferences(dialog->preferences()); });
  dialog->open();
}

void MainWindow::onAnalysisStarted(const QString& capturePath) {
  m_banner->dismiss();
  resetPages();
  m_analysis->start(capturePath);
  m_stack->setCurrentIndex(AnalysisStack);
  m_actions->setCaptureOpen(false);
  m_actions->cancel->setEnabled(true);
  updateTitle();
  updateStatusBar();
}

void MainWindow::resetPages() {
  m_statisticsTracker.invalidate();
  m_statisticsWanted = m_statisticsRequested = 0;
  m_summary->clear();
  m_connections->clear();
  m_timeline->clear();
  m_statistics->clear();
  m_packets->clear();
}

void MainWindow::onReady() {
  const CaptureOverview& overview = *m_session->overview();
  m_summary->setOverview(overview, m_session->dbPath(), m_session->outcome().reused);
  m_connections->setData(overview.connections, overview.settings, overview.capture);
  m_timeline->setOverview(overview);
  m_statisticsWanted = worstConnection(overview);  // loaded when the page is first shown
  m_packets->open(m_session->dbPath(), m_session->capturePath(), m_prefs.dissectorOptions());
  if (!overview.capture.warning.empty())
    m_banner->showMessage(MessageBanner::Kind::Warning, readWarningText(overview.capture));
  else if (m_session->outcome().closedEarly > 0)
    m_banner->showMessage(MessageBanner::Kind::Warning,
                          tr("%L1 connections were closed early because too many were open at once.")
                              .arg(m_session->outcome().closedEarly));
  m_stack->setCurrentIndex(ResultsStack);
  m_tabs->setCurrentIndex(SummaryIndex);
  m_recent->add(m_session->capturePath());
  m_actions->setCaptureOpen(true);
  m_actions->cancel->setEnabled(false);
  updateTitle();
  updateStatusBar();
  emit captureShown();
}

void MainWindow::onFailed(const QString& capturePath, const QString& message) {
  if (!QFileInfo::exists(capturePath)) m_recent->remove(capturePath);  // gone: not worth offering again
  const QString text = tr("Cannot open %1: %2").arg(fileName(capturePath), message);
  if (const qint64 frames = m_session->framesBeforeDamage(); frames >= 0)
    m_banner->showMessageWithAction(
        MessageBanner::Kind::Error, text, tr("Analyse the %L1 Frames Before It").arg(frames),
        [this, capturePath] { m_session->open(capturePath, m_prefs, true, true); });
  else
    m_banner->showMessage(MessageBanner::Kind::Error, text);
  showStartPage();
  emit captureNotShown(text);
}

void MainWindow::onCancelled(const QString& capturePath) {
  const QString text = tr("Analysis of %1 cancelled; nothing was saved.").arg(fileName(capturePath));
  m_banner->showMessage(MessageBanner::Kind::Information, text);
  showStartPage();
  emit captureNotShown(text);
}

void MainWindow::updateStatusBar() { m_counts->show(m_session->overview()); }

void MainWindow::updateTitle() {
  const QString path = m_session->capturePath();
  setWindowFilePath(path);
  setWindowTitle(path.isEmpty() ? QStringLiteral("rudpscope")
                                : fileName(path) + QStringLiteral(" — rudpscope"));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (m_live->capturing()) return;
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) return event->acceptProposedAction();
}

// One file replaces the open capture (as in Wireshark); rudpscope does not
// merge captures, so only the first of several is opened.
void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (!url.isLocalFile()) continue;
    event->acceptProposedAction();
    openCapture(url.toLocalFile());
    return;
  }
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState());
  m_session->cancel();
  QMainWindow::closeEvent(event);
}

void MainWindow::restoreWindowState() {
  QSettings settings;
  if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) resize(1280, 820);
  restoreState(settings.value(kStateKey).toByteArray());
}

}  // namespace rudp::gui
