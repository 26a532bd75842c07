// The Compare page's matrix: combo boxes choosing the cmp::MatrixRequest
// (metric, x label, group label, panel label, direction) over the matrix
// chart, and a line naming the captures the matrix leaves out and why.
// The label combos offer the labels the captures have; by default the
// matrix is the share over 300 ms against loss, a line per stack, a panel
// per delay (each only when the captures have that label).
#pragma once
#include <QWidget>
#include <vector>

#include "compare/matrix.h"

class QComboBox;
class QLabel;

namespace rudp::gui {

class MatrixChart;

class MatrixPanel : public QWidget {
  Q_OBJECT
 public:
  explicit MatrixPanel(QWidget* parent = nullptr);

  // The rows of every capture of the set (not only the checked ones).
  void setRows(std::vector<cmp::DirectionComparison> rows);
  void clear() { setRows({}); }
  // Chooses the request in the combo boxes (an unknown label or metric is
  // ignored) and draws it.
  void setRequest(const cmp::MatrixRequest& request);
  cmp::MatrixRequest request() const;

  MatrixChart* chart() const { return m_chart; }
  QComboBox* metricBox() const { return m_metric; }
  QComboBox* xBox() const { return m_x; }
  QComboBox* groupBox() const { return m_group; }
  // "Left out: a.pcap: no label 'loss'" (empty when none).
  QString skippedText() const;

 signals:
  // The point's capture, connection and direction (to check it in the picker).
  void captureActivated(const QString& capture, qint64 conn, rudp::Direction dir);

 private:
  void fillLabelBoxes();
  void rebuild();
  static void setBoxItems(QComboBox* box, const QStringList& items, bool allowNone);
  static void chooseData(QComboBox* box, const QString& data);

  std::vector<cmp::DirectionComparison> m_rows;
  QComboBox* m_metric;
  QComboBox* m_x;
  QComboBox* m_group;
  QComboBox* m_panel;
  QComboBox* m_direction;
  MatrixChart* m_chart;
  QLabel* m_skipped;
  bool m_filling = false;  // the boxes are being refilled: no rebuild per change
};

}  // namespace rudp::gui
