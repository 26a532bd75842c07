// A frame's bytes as Wireshark's bytes pane shows them: offset, 16 bytes in
// hex (a gap after 8), the same bytes as ASCII ('.' where not printable).
// One range is highlighted (the selected field's bytes); a click on a byte
// says which one, so the details can select the field that covers it.
#pragma once
#include <QAbstractScrollArea>
#include <cstdint>
#include <vector>

namespace rudp::gui {

class HexView : public QAbstractScrollArea {
  Q_OBJECT
 public:
  static constexpr int kBytesPerLine = 16;

  explicit HexView(QWidget* parent = nullptr);

  void setBytes(std::vector<uint8_t> bytes);
  const std::vector<uint8_t>& bytes() const { return m_bytes; }
  // Highlights [offset, offset + length) and scrolls it into view; length 0: none.
  void setHighlight(uint32_t offset, uint32_t length);
  uint32_t highlightOffset() const { return m_hlOffset; }
  uint32_t highlightLength() const { return m_hlLength; }

  // The byte under `pos` (viewport coordinates), hex or ASCII part; -1: none.
  int offsetAt(QPoint pos) const;
  // Where byte `offset`'s hex digits are drawn (viewport coordinates).
  QRect hexRect(int offset) const;
  // The text of line `line` as drawn: "0010  45 00 …  E.…".
  QString lineText(int line) const;

 signals:
  void byteClicked(int offset);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  int lineCount() const;
  int lineHeight() const;
  int charWidth() const;
  // The column (in characters) where byte `i` of a line starts, hex or ASCII.
  static int hexColumn(int i);
  static int asciiColumn(int i);
  void updateScrollBar();

  std::vector<uint8_t> m_bytes;
  uint32_t m_hlOffset = 0, m_hlLength = 0;
};

}  // namespace rudp::gui
