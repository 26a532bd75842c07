#include "pages/capture_list.h"

#include <QFileInfo>
#include <QSaveFile>

#include "compare/labels.h"

namespace rudp::gui {

CaptureList::CaptureList(QWidget* parent) : QTreeWidget(parent) {
  setObjectName(QStringLiteral("compare.captures"));
  setHeaderLabels({tr("Capture"), tr("Labels"), tr("Status")});
  setRootIsDecorated(false);
  setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  headerItem()->setToolTip(LabelsColumn,
                           tr("Double-click to edit; saved beside the capture as CAPTURE.labels"));
  connect(this, &QTreeWidget::itemChanged, this, &CaptureList::onItemChanged);
}

QString CaptureList::statusText(const CompareCapture& c) {
  if (!c.error.isEmpty()) return c.error;
  const QString read = c.reused ? tr("database reused") : tr("analysed");
  return c.connections == 1 ? tr("%1, 1 connection").arg(read)
                            : tr("%1, %2 connections").arg(read).arg(c.connections);
}

void CaptureList::setCaptures(const std::vector<CompareCapture>& captures) {
  m_filling = true;
  m_captures = captures;
  clear();
  for (const CompareCapture& c : m_captures) {
    auto* item = new QTreeWidgetItem(this, {QFileInfo(c.path).fileName(), c.labels, statusText(c)});
    item->setToolTip(FileColumn, c.db.isEmpty() ? c.path : tr("%1\ndatabase: %2").arg(c.path, c.db));
    item->setToolTip(StatusColumn, statusText(c));
    if (!c.error.isEmpty()) item->setForeground(StatusColumn, QColor(Qt::red));
    // Only the labels can be edited (a capture that failed before its labels were read has none to edit).
    if (c.error.isEmpty()) item->setFlags(item->flags() | Qt::ItemIsEditable);
  }
  for (int i = 0; i < columnCount(); ++i) resizeColumnToContents(i);
  m_filling = false;
}

QString CaptureList::saveLabels(const QString& capture, const QString& text) {
  QStringList lines;
  try {
    for (const QString& token : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      const auto [key, value] = cmp::parseLabel(token.toStdString());
      lines << QString::fromStdString(key + "=" + value);
    }
  } catch (const cmp::CompareError& e) { return QString::fromStdString(e.what()); }
  QSaveFile file(capture + QStringLiteral(".labels"));
  if (!file.open(QIODevice::WriteOnly)) return file.errorString();
  file.write((QStringLiteral("# labels of %1 (rudpscope Compare)\n").arg(QFileInfo(capture).fileName()) +
              lines.join(QLatin1Char(' ')) + QLatin1Char('\n'))
                 .toUtf8());
  return file.commit() ? QString() : file.errorString();
}

void CaptureList::onItemChanged(QTreeWidgetItem* item, int column) {
  if (m_filling || column != LabelsColumn) return;
  const int row = indexOfTopLevelItem(item);
  if (row < 0 || row >= static_cast<int>(m_captures.size())) return;
  const CompareCapture& c = m_captures[row];
  if (item->text(LabelsColumn) == c.labels) return;
  const QString error = saveLabels(c.path, item->text(LabelsColumn));
  if (!error.isEmpty()) {
    m_filling = true;
    item->setText(LabelsColumn, c.labels);  // as before: nothing was saved
    m_filling = false;
    emit labelsRejected(tr("Labels of %1 not saved: %2").arg(QFileInfo(c.path).fileName(), error));
    return;
  }
  emit labelsSaved(c.path);
}

}  // namespace rudp::gui
