// The stored fields of one packet (until the packet list exists): a heading
// ("Frame 123, connection 2, client → server") over a Field/Value table of
// PacketFieldsModel. Ctrl+C copies the selected rows as CSV.
#pragma once
#include <QWidget>
#include <optional>

#include "store/records.h"

class QLabel;
class QTableView;

namespace rudp::gui {

class PacketFieldsModel;

class PacketFieldsView : public QWidget {
  Q_OBJECT
 public:
  explicit PacketFieldsView(QWidget* parent = nullptr);

  // No packet: the table empties and the heading says how to pick one.
  void showPacket(const std::optional<PacketRecord>& packet, const CaptureInfo& capture);
  // No packet, and why (a live capture has no packet index until it stops).
  void showNote(const QString& text);

  QString heading() const;
  QString selectionCsv() const;
  PacketFieldsModel* model() const { return m_model; }
  QTableView* table() const { return m_table; }

 public slots:
  void copySelectionAsCsv();

 private:
  PacketFieldsModel* m_model;
  QLabel* m_heading;
  QTableView* m_table;
};

}  // namespace rudp::gui
