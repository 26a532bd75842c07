// The Statistics page of one connection: RTT histogram per direction and the
// RTT CDF of both, the loss-burst histogram, the per-direction figures
// (RTT percentiles, RFC 3550 jitter, packet spacing, tick rate, loss) and the
// stall list; selecting a stall emits stallActivated so the timeline zooms
// to it, its context menu also opens its packets in Wireshark. Fed with a StatisticsData
// (models/statistics_data.h) that loadStatistics made on a worker thread.
#pragma once
#include <QWidget>

#include "models/statistics_data.h"

class QLabel;
class QModelIndex;
class QPoint;
class QSortFilterProxyModel;
class QTableView;

namespace rudp::gui {

class DirectionFiguresModel;
class LossBurstModel;
class StallsModel;
class StatisticsCharts;

class StatisticsPage : public QWidget {
  Q_OBJECT
 public:
  explicit StatisticsPage(QWidget* parent = nullptr);

  void setData(StatisticsData data);
  void clear();
  const StatisticsData& data() const { return m_data; }

  // The table last focused (figures, loss bursts or stalls; the stall list
  // until one is focused), every row, as CSV.
  QString csv() const;
  // The charts (histograms and CDF) as one picture.
  bool exportPng(const QString& path) const;
  bool exportSvg(const QString& path) const;

  QTableView* stallTable() const { return m_stallTable; }
  QTableView* figuresTable() const { return m_figuresTable; }
  QTableView* lossBurstTable() const { return m_burstTable; }
  StallsModel* stallsModel() const { return m_stalls; }
  QWidget* charts() const;

 signals:
  // The user selected (or activated) a stall: `start_ns`/`end_ns` are capture
  // times (as PacketRecord::ts_ns), not relative to the capture start.
  void stallActivated(qint64 conn, rudp::Direction dir, qint64 start_ns, qint64 end_ns);
  // The packets of connection `conn` around a stall (capture times), with its
  // first packet `frame` (0: none) selected.
  void openInWiresharkRequested(qint64 conn, qint64 start_ns, qint64 end_ns, quint64 frame);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // remembers the last focused table

 private:
  QTableView* makeTable(const QString& name);
  QWidget* makeTables();
  void emitStall(const QModelIndex& proxyIndex);
  void showStallMenu(const QPoint& pos);

  StatisticsData m_data;
  QLabel* m_heading;
  StatisticsCharts* m_charts;
  DirectionFiguresModel* m_figures;
  LossBurstModel* m_bursts;
  StallsModel* m_stalls;
  QSortFilterProxyModel* m_stallsSorted;
  QTableView* m_figuresTable = nullptr;
  QTableView* m_burstTable = nullptr;
  QTableView* m_stallTable = nullptr;
  QTableView* m_lastFocused = nullptr;
};

}  // namespace rudp::gui
