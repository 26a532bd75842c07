// The Connections page: one row per connection, worst first (badness, see
// models/connection_figures.h), a filter box (Ctrl+F), a column chooser
// (header context menu or the Columns button; remembered in QSettings under
// "connections/columns") and copy as CSV (Ctrl+C: the selected rows; the
// "Copy table as CSV" button: every shown row). Copies hold the visible
// columns in their on-screen order.
#pragma once
#include <QWidget>
#include <vector>

#include "store/records.h"

class QLabel;
class QLineEdit;
class QMenu;
class QModelIndex;
class QTableView;

namespace rudp::gui {

class ConnectionsFilterModel;
class ConnectionsModel;

class ConnectionsPage : public QWidget {
  Q_OBJECT
 public:
  explicit ConnectionsPage(QWidget* parent = nullptr);

  // Replaces the table, sorted worst first, nothing selected.
  void setData(std::vector<ConnectionRecord> records, const AnalysisSettings& settings,
               const CaptureInfo& capture);
  void clear();
  // A live capture's newer rows: the selection, sort and filter stay.
  void updateData(std::vector<ConnectionRecord> records);

  // Selects and shows the row of `conn` (clearing the filter when it hides
  // it) without emitting connectionActivated.
  void selectConnection(qint64 conn);
  qint64 selectedConnection() const;  // 0: none

  // Every shown row (filtered, in the current sort) / the selected rows.
  QString csv() const;
  QString selectionCsv() const;

  // Column ids are ConnectionColumn::id ("rtt_p95", "loss", ...).
  void setColumnVisible(const QString& id, bool visible);
  bool isColumnVisible(const QString& id) const;

  QTableView* table() const { return m_table; }
  QLineEdit* filterEdit() const { return m_filter; }
  ConnectionsModel* model() const { return m_model; }
  ConnectionsFilterModel* proxy() const { return m_proxy; }

 public slots:
  void focusFilter();
  void copyTableAsCsv();
  void copySelectionAsCsv();

 signals:
  // The user selected or double-clicked a connection.
  void connectionActivated(qint64 conn);
  // "Open in Wireshark" from a row's context menu.
  void openInWiresharkRequested(qint64 conn);
  // "Create Dissector from This Flow…" from a row's context menu.
  void createDissectorRequested(qint64 conn);

 private:
  QWidget* makeToolBar();
  void fillColumnMenu(QMenu* menu);  // one checkable action per column
  void applyColumnVisibility();
  void updateCount();
  void onCurrentChanged(const QModelIndex& current);
  void showRowMenu(const QPoint& pos);
  qint64 connectionAt(const QModelIndex& proxyIndex) const;

  ConnectionsModel* m_model;
  ConnectionsFilterModel* m_proxy;
  QTableView* m_table;
  QLineEdit* m_filter;
  QLabel* m_count;
  bool m_selectingProgrammatically = false;
};

}  // namespace rudp::gui
