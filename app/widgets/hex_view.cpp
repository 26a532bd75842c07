#include "widgets/hex_view.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

namespace rudp::gui {

namespace {

// "0000  " then "xx " per byte with one more space after the eighth, then
// two spaces before the ASCII.
constexpr int kOffsetChars = 6;
constexpr int kHexEnd = kOffsetChars + HexView::kBytesPerLine * 3 + 1;
constexpr int kAsciiStart = kHexEnd + 1;

QChar printable(uint8_t b) { return b >= 0x20 && b < 0x7f ? QChar(b) : QChar('.'); }

}  // namespace

HexView::HexView(QWidget* parent) : QAbstractScrollArea(parent) {
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setObjectName(QStringLiteral("packets.bytes"));
  viewport()->setCursor(Qt::IBeamCursor);
}

void HexView::setBytes(std::vector<uint8_t> bytes) {
  m_bytes = std::move(bytes);
  m_hlOffset = m_hlLength = 0;
  updateScrollBar();
  verticalScrollBar()->setValue(0);
  viewport()->update();
}

void HexView::setHighlight(uint32_t offset, uint32_t length) {
  m_hlOffset = offset;
  m_hlLength = length;
  if (length > 0) {
    const int first = int(offset / kBytesPerLine);
    const int visible = std::max(1, viewport()->height() / lineHeight());
    QScrollBar* bar = verticalScrollBar();
    if (first < bar->value() || first >= bar->value() + visible) bar->setValue(first);
  }
  viewport()->update();
}

int HexView::lineCount() const { return int((m_bytes.size() + kBytesPerLine - 1) / kBytesPerLine); }
int HexView::lineHeight() const { return fontMetrics().height(); }
int HexView::charWidth() const { return fontMetrics().horizontalAdvance(QLatin1Char('0')); }
int HexView::hexColumn(int i) { return kOffsetChars + i * 3 + (i >= 8 ? 1 : 0); }
int HexView::asciiColumn(int i) { return kAsciiStart + i; }

QString HexView::lineText(int line) const {
  const size_t start = size_t(line) * kBytesPerLine;
  if (line < 0 || start >= m_bytes.size()) return {};
  QString text = QStringLiteral("%1").arg(start, 4, 16, QLatin1Char('0'));
  text = text.leftJustified(kAsciiStart + kBytesPerLine, QLatin1Char(' '));
  for (int i = 0; i < kBytesPerLine && start + i < m_bytes.size(); ++i) {
    const uint8_t b = m_bytes[start + i];
    text.replace(hexColumn(i), 2, QStringLiteral("%1").arg(b, 2, 16, QLatin1Char('0')));
    text[asciiColumn(i)] = printable(b);
  }
  return text.trimmed();
}

QRect HexView::hexRect(int offset) const {
  const int line = offset / kBytesPerLine - verticalScrollBar()->value();
  const int x = hexColumn(offset % kBytesPerLine) * charWidth() + 4;
  return QRect(x, line * lineHeight(), 2 * charWidth(), lineHeight());
}

int HexView::offsetAt(QPoint pos) const {
  const int line = pos.y() / lineHeight() + verticalScrollBar()->value();
  const int column = (pos.x() - 4) / charWidth();
  int i = -1;
  if (column >= kAsciiStart && column < kAsciiStart + kBytesPerLine) {
    i = column - kAsciiStart;
  } else {
    for (int b = 0; b < kBytesPerLine; ++b)
      if (column >= hexColumn(b) && column < hexColumn(b) + 2) i = b;
  }
  const size_t offset = size_t(line) * kBytesPerLine + size_t(i);
  return i >= 0 && line >= 0 && offset < m_bytes.size() ? int(offset) : -1;
}

// Every cell is drawn on the same integer character grid that hexRect() and
// offsetAt() use, so highlights, clicks and glyphs line up at any font size.
void HexView::paintEvent(QPaintEvent*) {
  QPainter p(viewport());
  p.fillRect(viewport()->rect(), palette().base());
  const int h = lineHeight(), w = charWidth();
  const int first = verticalScrollBar()->value();
  const int last = std::min(lineCount(), first + viewport()->height() / h + 2);
  const uint64_t hlEnd = uint64_t(m_hlOffset) + m_hlLength;
  auto cell = [&](int column, int chars, int y, const QString& text, bool highlighted, int fillChars) {
    const QRect r(4 + column * w, y, chars * w, h);
    if (highlighted) p.fillRect(QRect(r.topLeft(), QSize(fillChars * w, h)), palette().highlight());
    p.setPen(palette().color(highlighted ? QPalette::HighlightedText : QPalette::Text));
    p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, text);
  };
  for (int line = first; line < last; ++line) {
    const int y = (line - first) * h;
    const QString text = lineText(line);
    cell(0, 4, y, text.left(4), false, 0);
    for (int i = 0; i < kBytesPerLine; ++i) {
      const uint64_t offset = uint64_t(line) * kBytesPerLine + i;
      if (offset >= m_bytes.size()) break;
      const bool on = offset >= m_hlOffset && offset < hlEnd;
      // A highlighted run is one band: the gap to the next highlighted byte is filled too.
      const bool joinNext = on && offset + 1 < hlEnd && i + 1 < kBytesPerLine;
      const int gap = joinNext ? hexColumn(i + 1) - hexColumn(i) : 2;
      cell(hexColumn(i), 2, y, text.mid(hexColumn(i), 2), on, gap);
      cell(asciiColumn(i), 1, y, text.mid(asciiColumn(i), 1), on, 1);
    }
  }
}

void HexView::mousePressEvent(QMouseEvent* event) {
  const int offset = offsetAt(event->position().toPoint());
  if (offset >= 0) emit byteClicked(offset);
}

void HexView::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  updateScrollBar();
}

void HexView::updateScrollBar() {
  const int visible = std::max(1, viewport()->height() / lineHeight());
  verticalScrollBar()->setRange(0, std::max(0, lineCount() - visible));
  verticalScrollBar()->setPageStep(visible);
}

}  // namespace rudp::gui
