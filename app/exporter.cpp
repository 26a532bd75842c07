#include "exporter.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTabWidget>

#include "jobs/capture_session.h"
#include "main_window.h"
#include "models/table_csv.h"
#include "pages/connections_page.h"
#include "pages/statistics_page.h"
#include "pages/summary_page.h"
#include "pages/timeline_page.h"
#include "report/html_report.h"
#include "widgets/timeline_view.h"

namespace rudp::gui {

namespace {

QString writeText(const QString& path, const QByteArray& bytes) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return file.errorString();
  file.write(bytes);
  return file.commit() ? QString() : file.errorString();
}

}  // namespace

Exporter::Exporter(MainWindow* window) : QObject(window), m_window(window) {}

QString Exporter::suggestedBaseName() const {
  const QString capture = m_window->session().capturePath();
  const QString page = m_window->resultPages()->tabText(m_window->resultPages()->currentIndex()).toLower();
  return QFileInfo(capture).completeBaseName() + QLatin1Char('-') + page;
}

QString Exporter::askPath(const QString& title, const QString& suggestedName, const QString& filter) {
  const QString dir = QFileInfo(m_window->session().capturePath()).absolutePath();
  return QFileDialog::getSaveFileName(m_window, title, dir + QLatin1Char('/') + suggestedName, filter);
}

void Exporter::report(const QString& error, const QString& path) {
  if (error.isEmpty())
    m_window->statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  else
    QMessageBox::warning(m_window, tr("Export"), tr("Cannot export to %1: %2").arg(path, error));
}

void Exporter::exportChart(ChartFormat format) {
  const bool png = format == Png;
  const QString path = askPath(png ? tr("Export Chart as PNG") : tr("Export Chart as SVG"),
                               suggestedBaseName() + (png ? QStringLiteral(".png") : QStringLiteral(".svg")),
                               png ? tr("PNG images (*.png)") : tr("SVG images (*.svg)"));
  if (!path.isEmpty()) report(exportChartTo(path, format), path);
}

void Exporter::exportTable() {
  const QString path = askPath(tr("Export Table as CSV"), suggestedBaseName() + QStringLiteral(".csv"),
                               tr("CSV files (*.csv)"));
  if (!path.isEmpty()) report(exportTableTo(path), path);
}

void Exporter::exportReport() {
  const QString path = askPath(
      tr("Export Report"),
      QFileInfo(m_window->session().capturePath()).completeBaseName() + QStringLiteral("-report.html"),
      tr("HTML files (*.html)"));
  if (!path.isEmpty()) exportReportTo(path);
}

QString Exporter::exportChartTo(const QString& path, ChartFormat format) {
  QWidget* page = m_window->resultPages()->currentWidget();
  if (page == m_window->timelinePage()) {
    if (m_window->timelinePage()->connection() == 0) return tr("no connection is shown");
    TimelineView* view = m_window->timelinePage()->view();
    const bool ok = format == Png ? view->exportPng(path) : view->exportSvg(path);
    return ok ? QString() : tr("the file could not be written");
  }
  if (page == m_window->statisticsPage()) {
    const bool ok = format == Png ? m_window->statisticsPage()->exportPng(path)
                                  : m_window->statisticsPage()->exportSvg(path);
    return ok ? QString() : tr("the file could not be written");
  }
  Q_UNUSED(page);
  Q_UNUSED(format);
  Q_UNUSED(path);
  return tr("this page has no chart (the Timeline and Statistics pages have)");
}

QString Exporter::exportTableTo(const QString& path) {
  QWidget* page = m_window->resultPages()->currentWidget();
  const QAbstractItemModel* model = nullptr;
  if (page == m_window->summaryPage()) model = m_window->summaryPage()->problemsModel();
  if (page == m_window->connectionsPage())
    return writeText(path, m_window->connectionsPage()->csv().toUtf8());
  if (page == m_window->statisticsPage()) return writeText(path, m_window->statisticsPage()->csv().toUtf8());
  if (!model) return tr("this page has no table (the Summary, Connections and Statistics pages have)");
  return writeText(path, tableToCsv(*model).toUtf8());
}

void Exporter::exportReportTo(const QString& path) {
  m_window->statusBar()->showMessage(tr("Writing the report…"));
  report::HtmlReportOptions options;
  options.generator = "rudpscope " + QCoreApplication::applicationVersion().toStdString();
  m_window->session().queries().run(
      m_reportTracker, m_window->session().dbPath(),
      [path = path.toStdString(), options](StoreReader& reader) {
        report::writeHtmlReportFile(reader, path, options);
        return true;
      },
      [this, path](bool) {
        report(QString(), path);
        emit reportExported(path, QString());
      },
      [this, path](const QString& error) {
        report(error, path);
        emit reportExported(path, error);
      });
}

}  // namespace rudp::gui
