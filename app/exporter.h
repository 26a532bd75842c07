// File > Export: the chart of the current page as PNG or SVG, the table of
// the current page as CSV, and the one-page HTML report of the capture.
// Each has a dialog-free form (tests, scripts) and one that asks for a file.
#pragma once
#include <QObject>
#include <QString>

#include "jobs/job_tracker.h"

namespace rudp::gui {

class MainWindow;

class Exporter : public QObject {
  Q_OBJECT
 public:
  enum ChartFormat { Png, Svg };

  explicit Exporter(MainWindow* window);

  void exportChart(ChartFormat format);
  void exportTable();
  void exportReport();

  // Empty on success, else why not (one line).
  QString exportChartTo(const QString& path, ChartFormat format);
  QString exportTableTo(const QString& path);
  // Written on a worker thread (it reads the database); reportExported tells
  // how it went.
  void exportReportTo(const QString& path);

 signals:
  void reportExported(const QString& path, const QString& error);

 private:
  QString askPath(const QString& title, const QString& suggestedName, const QString& filter);
  QString suggestedBaseName() const;
  void report(const QString& error, const QString& path);

  MainWindow* m_window;
  JobTracker m_reportTracker;
};

}  // namespace rudp::gui
