// The details of one frame as a tree (Wireshark's details pane): each layer,
// then the items the Lua dissector added, nested as it nested them. Selecting
// an item announces the bytes it covers; a byte clicked in the bytes pane
// selects the innermost item covering it. Ctrl+C copies the selected item's
// value (its whole line when it has none).
#pragma once
#include <QTreeWidget>
#include <cstdint>

#include "packets/frame_dissector.h"

namespace rudp::gui {

class PacketDetailsView : public QTreeWidget {
  Q_OBJECT
 public:
  enum Role { OffsetRole = Qt::UserRole, LengthRole, FieldRole, ValueRole };

  explicit PacketDetailsView(QWidget* parent = nullptr);

  void showFrame(const DissectedFrame& frame);
  // The same frame again with more items: the items open or closed stay
  // so, the current item stays current, the scroll position stays.
  void updateFrame(const DissectedFrame& frame);
  void showNote(const QString& text);

  // Selects the innermost item whose bytes hold `offset`; false when none does.
  bool selectByte(uint32_t offset);
  // The item for field `filterName` ("grudp.seq"); nullptr when absent.
  QTreeWidgetItem* itemOfField(const QString& filterName) const;
  // What Ctrl+C copies for the current item.
  QString copyText() const;
  void copyValue();
  // "field == value" for the current item, as Wireshark's Apply as Filter
  // writes it; empty when the item has no field.
  QString filterText() const;

 signals:
  // The current item covers [offset, offset + length); length 0: no bytes.
  void bytesSelected(uint32_t offset, uint32_t length);
  // Context menu (and keys): Wireshark's Apply as Column (Ctrl+Shift+I) and
  // Apply as Filter (the item's field == its value).
  void applyAsColumn(const QString& field);
  void applyAsFilter(const QString& filter);

 private:
  void contextMenu(const QPoint& pos);
};

}  // namespace rudp::gui
