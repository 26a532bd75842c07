#include "pages/packet_details_view.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QShortcut>
#include <algorithm>
#include <map>
#include <vector>

#include "packets/frame_layers.h"

namespace rudp::gui {

namespace {

// An item's line and the lines of the items above it, from its layer down.
QStringList labelPath(const QTreeWidgetItem* item) {
  QStringList path;
  for (; item; item = item->parent()) path.prepend(item->text(0));
  return path;
}

bool covers(const QTreeWidgetItem* item, uint32_t offset) {
  const uint32_t start = item->data(0, PacketDetailsView::OffsetRole).toUInt();
  const uint32_t length = item->data(0, PacketDetailsView::LengthRole).toUInt();
  return length > 0 && offset >= start && offset - start < length;
}

}  // namespace

PacketDetailsView::PacketDetailsView(QWidget* parent) : QTreeWidget(parent) {
  setObjectName(QStringLiteral("packets.details"));
  setHeaderHidden(true);
  setColumnCount(1);
  setUniformRowHeights(true);
  header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  setContextMenuPolicy(Qt::CustomContextMenu);
  connect(this, &QWidget::customContextMenuRequested, this, &PacketDetailsView::contextMenu);
  connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (!item) return emit bytesSelected(0, 0);
    emit bytesSelected(item->data(0, OffsetRole).toUInt(), item->data(0, LengthRole).toUInt());
  });
  auto* copy = new QShortcut(QKeySequence::Copy, this, nullptr, nullptr, Qt::WidgetShortcut);
  connect(copy, &QShortcut::activated, this, &PacketDetailsView::copyValue);
}

void PacketDetailsView::showFrame(const DissectedFrame& frame) {
  clear();
  // The newest item at each depth: an item's parent is the one above its depth.
  std::vector<QTreeWidgetItem*> open;
  for (const FrameItem& i : frame.items) {
    const size_t depth = std::min<size_t>(i.depth, open.size());
    auto* item = depth == 0 ? new QTreeWidgetItem(this) : new QTreeWidgetItem(open[depth - 1]);
    item->setText(0, QString::fromStdString(i.label));
    const bool hasBytes = i.offset != FrameItem::kNoBytes;
    item->setData(0, OffsetRole, hasBytes ? i.offset : 0u);
    item->setData(0, LengthRole, hasBytes ? i.length : 0u);
    item->setData(0, FieldRole, QString::fromStdString(i.field));
    item->setData(0, ValueRole, QString::fromStdString(i.value));
    if (!i.field.empty()) item->setToolTip(0, QString::fromStdString(i.field));
    open.resize(depth);
    open.push_back(item);
  }
  // Wireshark's habit: the layers built into it stay closed, the game's protocol is open.
  for (int i = 0; i < topLevelItemCount(); ++i) {
    QTreeWidgetItem* layer = topLevelItem(i);
    const std::string field = layer->data(0, FieldRole).toString().toStdString();
    const bool builtin =
        std::find(kBuiltinLayers.begin(), kBuiltinLayers.end(), field) != kBuiltinLayers.end();
    if (!builtin || layer->childCount() == 0) expandRecursively(indexFromItem(layer));
  }
}

void PacketDetailsView::updateFrame(const DissectedFrame& frame) {
  // Items are known by their lines from the layer down (the new items add
  // lines, they change none).
  std::map<QStringList, bool> expanded;
  QStringList current;
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    if ((*it)->childCount() > 0) expanded[labelPath(*it)] = (*it)->isExpanded();
    if (*it == currentItem()) current = labelPath(*it);
  }
  const int scrolled = verticalScrollBar()->value();
  showFrame(frame);
  for (QTreeWidgetItemIterator it(this); *it; ++it) {
    const QStringList path = labelPath(*it);
    if (const auto was = expanded.find(path); was != expanded.end()) (*it)->setExpanded(was->second);
    if (!current.isEmpty() && path == current) setCurrentItem(*it);
  }
  verticalScrollBar()->setValue(scrolled);
}

void PacketDetailsView::showNote(const QString& text) {
  clear();
  auto* item = new QTreeWidgetItem(this);
  item->setText(0, text);
  item->setFlags(Qt::ItemIsEnabled);
}

bool PacketDetailsView::selectByte(uint32_t offset) {
  // Depth-first, in order: the last covering item met is the innermost.
  QTreeWidgetItem* best = nullptr;
  for (QTreeWidgetItemIterator it(this); *it; ++it)
    if (covers(*it, offset)) best = *it;
  if (best) setCurrentItem(best);
  return best != nullptr;
}

QTreeWidgetItem* PacketDetailsView::itemOfField(const QString& filterName) const {
  for (QTreeWidgetItemIterator it(const_cast<PacketDetailsView*>(this)); *it; ++it)
    if ((*it)->data(0, FieldRole).toString() == filterName) return *it;
  return nullptr;
}

QString PacketDetailsView::copyText() const {
  const QTreeWidgetItem* item = currentItem();
  if (!item) return {};
  const QString value = item->data(0, ValueRole).toString();
  return value.isEmpty() ? item->text(0) : value;
}

void PacketDetailsView::copyValue() {
  if (currentItem()) QApplication::clipboard()->setText(copyText());
}

QString PacketDetailsView::filterText() const {
  const QTreeWidgetItem* item = currentItem();
  QString field = item ? item->data(0, FieldRole).toString() : QString();
  if (field.isEmpty()) return {};
  const QString value = item->data(0, ValueRole).toString();
  if (value.isEmpty() || value == field) return field;  // a protocol: it is there
  bool number = value.startsWith(QLatin1String("0x"));
  if (!number) value.toDouble(&number);
  const bool plain = number || value.contains(QLatin1Char(':')) || value.count(QLatin1Char('.')) == 3;
  if (plain) return field + QStringLiteral(" == ") + value;
  QString quoted = value;
  quoted.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
  return field + QStringLiteral(" == \"") + quoted + QLatin1Char('"');
}

void PacketDetailsView::contextMenu(const QPoint& pos) {
  QTreeWidgetItem* item = itemAt(pos);
  if (!item) return;
  setCurrentItem(item);
  QMenu menu(this);
  menu.addAction(tr("Copy Value"), this, &PacketDetailsView::copyValue);
  menu.addAction(tr("Copy Line"), this, [item] { QApplication::clipboard()->setText(item->text(0)); });
  const QString field = item->data(0, FieldRole).toString();
  if (!field.isEmpty()) {
    menu.addAction(tr("Copy Field Name (%1)").arg(field), this,
                   [field] { QApplication::clipboard()->setText(field); });
    menu.addSeparator();
    menu.addAction(tr("Apply as Column"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I), this,
                   [this, field] { emit applyAsColumn(field); });
    menu.addAction(tr("Apply as Filter: %1").arg(filterText()), this,
                   [this] { emit applyAsFilter(filterText()); });
  }
  menu.exec(viewport()->mapToGlobal(pos));
}

}  // namespace rudp::gui
