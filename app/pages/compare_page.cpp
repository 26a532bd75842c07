#include "pages/compare_page.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <sstream>

#include "compare/comparison_report.h"
#include "models/compare_rows_model.h"
#include "models/comparison_model.h"
#include "models/table_csv.h"
#include "pages/aligned_timelines.h"
#include "pages/capture_list.h"
#include "pages/matrix_panel.h"
#include "widgets/cdf_chart.h"
#include "widgets/chart_export.h"
#include "widgets/matrix_chart.h"
#include "widgets/message_banner.h"

namespace rudp::gui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const char* name) {
  auto* view = new QTableView;
  view->setObjectName(QLatin1String(name));
  view->setModel(model);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setStretchLastSection(true);
  view->setWordWrap(false);
  return view;
}

// The file written whole or not at all; empty on success, else why not.
QString writeWhole(const QString& path, const QByteArray& bytes) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return file.errorString();
  file.write(bytes);
  return file.commit() ? QString() : file.errorString();
}

}  // namespace

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent),
      m_banner(new MessageBanner),
      m_status(new QLabel),
      m_cancel(new QPushButton(tr("Cancel"))),
      m_captures(new CaptureList),
      m_rows(new CompareRowsModel(this)),
      m_rowsView(makeTable(m_rows, "compare.connections")),
      m_table(new ComparisonModel(this)),
      m_tableView(makeTable(m_table, "compare.table")),
      m_cdf(new CdfChart),
      m_recovery(new CdfChart),
      m_matrix(new MatrixPanel),
      m_timelines(new AlignedTimelines),
      m_tabs(new QTabWidget) {
  setObjectName(QStringLiteral("comparePage"));
  m_status->setObjectName(QStringLiteral("compare.status"));
  // A long status line is cut, not a reason for a wider window.
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_banner->setObjectName(QStringLiteral("compare.banner"));
  auto* splitter = new QSplitter(Qt::Horizontal);
  splitter->addWidget(createLists());
  splitter->addWidget(createTabs());
  splitter->setStretchFactor(1, 2);
  splitter->setSizes({480, 1000});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_banner);
  layout->addWidget(createToolbar());
  layout->addWidget(splitter, 1);
  connect(m_rows, &CompareRowsModel::checkedChanged, this, &ComparePage::refreshChecked);
  // New labels: compare again (the databases are reused, so this is quick).
  connect(m_captures, &CaptureList::labelsSaved, this, [this] { compare(m_paths); });
  connect(m_captures, &CaptureList::labelsRejected, this,
          [this](const QString& message) { m_banner->showMessage(MessageBanner::Kind::Error, message); });
  connect(m_matrix, &MatrixPanel::captureActivated, this,
          [this](const QString& capture, qint64 conn, Direction dir) {
            const int row = m_rows->rowOf(capture.toStdString(), conn, dir);
            if (row >= 0) m_rowsView->selectRow(row);
          });
  setBusy(false);
  tabChanged(m_tabs->currentIndex());
  m_status->setText(tr("Open a folder of captures (one per condition and stack) or add captures."));
}

ComparePage::~ComparePage() = default;

QWidget* ComparePage::createToolbar() {
  auto* open = new QPushButton(tr("Open F&older…"));
  auto* add = new QPushButton(tr("&Add Captures…"));
  auto* saveTable = new QPushButton(tr("Export Table (CSV)…"));
  auto* saveMatrix = new QPushButton(tr("Export Matrix (CSV)…"));
  auto* saveReport = new QPushButton(tr("Export Report (HTML)…"));
  auto* saveChart = m_saveChart = new QToolButton;
  saveChart->setObjectName(QStringLiteral("compare.saveChart"));
  saveChart->setText(tr("Save Chart"));
  saveChart->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(saveChart);
  menu->addAction(tr("as PNG…"), this, [this] { this->saveChart(false); });
  menu->addAction(tr("as SVG…"), this, [this] { this->saveChart(true); });
  saveChart->setMenu(menu);
  connect(open, &QPushButton::clicked, this, [this] { chooseFolder(); });
  connect(add, &QPushButton::clicked, this, [this] { chooseCapturesToAdd(); });
  connect(m_cancel, &QPushButton::clicked, this, &ComparePage::cancel);
  connect(saveTable, &QPushButton::clicked, this, [this] {
    saveWith(tr("Export Table as CSV"), QStringLiteral("comparison.csv"), tr("CSV files (*.csv)"),
             [this](const QString& p) { return exportTableTo(p); });
  });
  connect(saveMatrix, &QPushButton::clicked, this, [this] {
    saveWith(tr("Export Matrix as CSV"), QStringLiteral("matrix.csv"), tr("CSV files (*.csv)"),
             [this](const QString& p) { return exportMatrixTo(p); });
  });
  connect(saveReport, &QPushButton::clicked, this, [this] {
    saveWith(tr("Export Comparison Report"), QStringLiteral("comparison.html"), tr("HTML files (*.html)"),
             [this](const QString& p) { return exportReportTo(p); });
  });
  auto* bar = new QWidget;
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  for (QWidget* w : std::initializer_list<QWidget*>{open, add, m_cancel}) row->addWidget(w);
  row->addWidget(m_status, 1);
  for (QWidget* w : std::initializer_list<QWidget*>{saveTable, saveMatrix, saveReport, saveChart})
    row->addWidget(w);
  return bar;
}

QWidget* ComparePage::createLists() {
  auto* lists = new QSplitter(Qt::Vertical);
  lists->addWidget(m_captures);
  lists->addWidget(m_rowsView);
  return lists;
}

QWidget* ComparePage::createTabs() {
  m_cdf->setObjectName(QStringLiteral("compare.cdf"));
  m_cdf->setTitle(tr("RTT samples"));
  m_cdf->setAxisLabel(tr("RTT (ms)"));
  m_tabs->setObjectName(QStringLiteral("compare.tabs"));
  m_tabs->addTab(m_tableView, tr("Side by Side"));
  m_recovery->setObjectName(QStringLiteral("compare.recovery"));
  m_recovery->setTitle(tr("Loss recovery: from each lost packet's first copy to the copy that got through"));
  m_recovery->setAxisLabel(tr("recovery (ms)"));
  m_tabs->addTab(m_cdf, tr("RTT CDF"));
  m_tabs->addTab(m_recovery, tr("Recovery CDF"));
  m_tabs->addTab(m_timelines, tr("Timelines"));
  m_tabs->addTab(m_matrix, tr("Matrix"));
  connect(m_tabs, &QTabWidget::currentChanged, this, &ComparePage::refreshTimelines);
  connect(m_tabs, &QTabWidget::currentChanged, this, &ComparePage::tabChanged);
  return m_tabs;
}

void ComparePage::compare(const QStringList& paths) {
  m_paths = paths;
  CompareRequest request{paths, {}, m_prefs};
  m_banner->dismiss();
  setBusy(true);
  m_status->setText(tr("Starting…"));
  emit comparisonStarted();
  if (m_job) {
    m_pending = std::move(request);
    m_tracker.invalidate();
    m_job->cancel();
    return;
  }
  launch(std::move(request));
}

void ComparePage::addCaptures(const QStringList& paths) {
  QStringList all = m_paths;
  for (const QString& p : paths)
    if (!all.contains(p)) all << p;
  compare(all);
}

void ComparePage::cancel() {
  if (!m_job) return;
  m_job->cancel();
  if (!m_pending) return;  // the job's own cancelled() follows
  // The running job is already stale; what is cancelled is the request
  // waiting for it, which never started.
  m_pending.reset();
  showCancelled();
}

void ComparePage::launch(CompareRequest request) {
  m_job = new CompareJob(m_tracker.startJob(), std::move(request), this);
  connect(m_job, &CompareJob::progressed, this, &ComparePage::onProgress);
  connect(m_job, &CompareJob::succeeded, this, &ComparePage::onSucceeded);
  connect(m_job, &CompareJob::failed, this, &ComparePage::onFailed);
  connect(m_job, &CompareJob::cancelled, this, &ComparePage::onCancelled);
  m_job->start();
}

// The job has stopped: frees it and starts the request that waited for it.
void ComparePage::jobEnded(quint64 id) {
  if (!m_job || m_job->id() != id) return;
  m_job->deleteLater();
  m_job = nullptr;
  if (m_pending) {
    CompareRequest next = std::move(*m_pending);
    m_pending.reset();
    launch(std::move(next));
    return;
  }
  setBusy(false);
}

void ComparePage::onProgress(quint64 id, const CompareProgress& p) {
  if (!m_tracker.isCurrent(id)) return;
  QString text = tr("Analysing %1 of %2: %3").arg(p.capture + 1).arg(p.captures).arg(p.name);
  if (p.fraction >= 0) text += QStringLiteral(" (%1 %)").arg(qRound(100 * p.fraction));
  m_status->setText(text);
}

void ComparePage::onSucceeded(quint64 id, const CompareOutcome& outcome) {
  const bool current = m_tracker.isCurrent(id);
  jobEnded(id);
  if (!current) return;
  m_outcome = outcome;
  showOutcome();
}

void ComparePage::onFailed(quint64 id, const QString& message) {
  const bool current = m_tracker.isCurrent(id);
  jobEnded(id);
  if (!current) return;
  const QString text = tr("Nothing to compare: %1").arg(message);
  m_banner->showMessage(MessageBanner::Kind::Error, text);
  m_status->setText(text);
  emit comparisonNotShown(text);
}

void ComparePage::onCancelled(quint64 id) {
  const bool current = m_tracker.isCurrent(id);
  jobEnded(id);
  if (current) showCancelled();
}

void ComparePage::showCancelled() {
  const QString text = tr("Comparison cancelled; the captures analysed so far keep their databases.");
  m_banner->showMessage(MessageBanner::Kind::Information, text);
  m_status->setText(text);
  emit comparisonNotShown(text);
}

void ComparePage::showOutcome() {
  m_captures->setCaptures(m_outcome.captures);
  m_rows->setRows(m_outcome.rows);  // checks the busiest connections: refreshChecked follows
  m_rowsView->resizeColumnsToContents();
  m_matrix->setRows(m_outcome.rows);
  const int total = static_cast<int>(m_outcome.captures.size());
  const int failed = m_outcome.failed();
  m_status->setText(total - failed == 1 ? tr("1 capture compared")
                                        : tr("%1 captures compared").arg(total - failed));
  QStringList problems;
  for (const CompareCapture& c : m_outcome.captures)
    if (!c.error.isEmpty()) problems << QFileInfo(c.path).fileName() + QStringLiteral(": ") + c.error;
  problems << m_outcome.warnings;
  if (failed == total) {
    const QString text = tr("No capture could be read: %1").arg(problems.join(QStringLiteral("; ")));
    m_banner->showMessage(MessageBanner::Kind::Error, text);
    emit comparisonNotShown(text);
    return;
  }
  if (!problems.isEmpty())
    m_banner->showMessage(failed ? MessageBanner::Kind::Error : MessageBanner::Kind::Warning,
                          problems.join(QStringLiteral("; ")));
  emit comparisonShown();
}

void ComparePage::refreshChecked() {
  m_cdf->clear();
  m_recovery->clear();
  for (int i : m_rows->checkedIndexes()) {
    const cmp::DirectionComparison& row = m_outcome.rows[i];
    m_cdf->addSeries(ComparisonModel::columnName(row), m_outcome.rttMs[i]);
    // At the receiver a "recovery" is no loss's (DirectionComparison::at_receiver).
    m_recovery->addSeries(ComparisonModel::columnName(row),
                          row.at_receiver ? std::vector<double>{} : row.recovery_samples_ms);
  }
  m_table->setColumns(m_rows->checkedRows());
  m_tableView->resizeColumnsToContents();
  m_timelinesStale = true;
  refreshTimelines();
}

void ComparePage::refreshTimelines() {
  if (!m_timelinesStale || m_tabs->currentWidget() != m_timelines) return;
  m_timelinesStale = false;
  std::vector<TimelineRequest> requests;
  for (const cmp::DirectionComparison& d : m_table->columns()) {
    const QString capture = QString::fromStdString(d.capture);
    for (const CompareCapture& c : m_outcome.captures)
      if (c.path == capture) requests.push_back({ComparisonModel::columnName(d), c.db, d.conn, d.dir});
  }
  m_timelines->load(std::move(requests));
}

void ComparePage::setBusy(bool busy) { m_cancel->setEnabled(busy); }

QString ComparePage::statusText() const { return m_status->text(); }

QString ComparePage::csv() const { return tableToCsv(*m_table); }

QString ComparePage::exportTableTo(const QString& path) const {
  if (m_table->columns().empty()) return tr("no connection is chosen for the table");
  return writeWhole(path, csv().toUtf8());
}

const ChartWidget* ComparePage::currentChart() const {
  switch (m_tabs->currentIndex()) {
    case CdfTab: return m_cdf;
    case RecoveryTab: return m_recovery;
    case MatrixTab: return m_matrix->chart();
    default: return nullptr;
  }
}

// Save Chart saves the chart in view; the table and the timelines are none.
void ComparePage::tabChanged(int index) {
  const bool chart = index == CdfTab || index == RecoveryTab || index == MatrixTab;
  m_saveChart->setEnabled(chart);
  m_saveChart->setToolTip(chart ? tr("Save the chart shown as PNG or SVG")
                                : tr("Show a CDF or the Matrix to save it as a chart"));
}

QString ComparePage::exportChartTo(const QString& path, bool svg) const {
  const ChartWidget* chart = currentChart();
  if (!chart) return tr("the %1 tab has no chart").arg(m_tabs->tabText(m_tabs->currentIndex()));
  const bool ok = svg ? chart->exportSvg(path) : chart->exportPng(path);
  return ok ? QString() : tr("the file could not be written");
}

QString ComparePage::exportMatrixTo(const QString& path) const {
  const cmp::Matrix& matrix = m_matrix->chart()->matrix();
  if (matrix.panels.empty()) return tr("the matrix has no point");
  std::ostringstream csv;
  cmp::writeMatrixCsv(csv, matrix);
  return writeWhole(path, QByteArray::fromStdString(csv.str()));
}

bool ComparePage::chooseFolder() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Capture Set"));
  if (dir.isEmpty()) return false;
  compare({dir});
  return true;
}

bool ComparePage::chooseCapturesToAdd(const QString& alsoAdd) {
  QStringList files = QFileDialog::getOpenFileNames(
      this, tr("Compare With"), {}, tr("Captures (*.pcap *.pcapng *.cap *.snoop *.gz *.zst);;All files (*)"));
  if (files.isEmpty()) return false;
  if (!alsoAdd.isEmpty()) files.prepend(alsoAdd);
  addCaptures(files);
  return true;
}

void ComparePage::saveWith(const QString& title, const QString& name, const QString& filter,
                           const std::function<QString(const QString&)>& exportTo) {
  const QString path = QFileDialog::getSaveFileName(this, title, name, filter);
  if (path.isEmpty()) return;
  const QString error = exportTo(path);
  if (!error.isEmpty())
    m_banner->showMessage(MessageBanner::Kind::Error, tr("Cannot export to %1: %2").arg(path, error));
}

QString ComparePage::exportReportTo(const QString& path) const {
  if (m_outcome.rows.empty()) return tr("nothing is compared yet");
  cmp::ComparisonReport report;
  for (const cmp::DirectionComparison& d : m_table->columns()) report.columns.push_back(&d);
  const cmp::Matrix& matrix = m_matrix->chart()->matrix();
  if (!matrix.panels.empty()) report.matrix = &matrix;
  try {
    cmp::writeComparisonReportFile(report, path.toStdString());
  } catch (const std::exception& e) { return QString::fromStdString(e.what()); }
  return {};
}

void ComparePage::saveChart(bool svg) {
  const ChartWidget* chart = currentChart();
  if (!chart) return;
  saveChartAs(this, svg, exportSize(chart, {}), chart->chartTitle(),
              [chart](QPainter& p, QSize s) { chart->paint(p, s); });
}

}  // namespace rudp::gui
