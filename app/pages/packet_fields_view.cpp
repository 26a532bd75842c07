#include "pages/packet_fields_view.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

#include "models/packet_fields_model.h"
#include "models/table_csv.h"
#include "models/value_text.h"

namespace rudp::gui {

namespace {
QString headingOf(const PacketRecord& p) {
  const QString conn = p.conn ? QObject::tr("connection %1").arg(p.conn) : QObject::tr("no connection");
  return QObject::tr("Frame %1, %2, %3").arg(p.frame).arg(conn, directionLongName(p.dir));
}
}  // namespace

PacketFieldsView::PacketFieldsView(QWidget* parent)
    : QWidget(parent), m_model(new PacketFieldsModel(this)), m_heading(new QLabel), m_table(new QTableView) {
  m_heading->setObjectName(QStringLiteral("packetFields.heading"));
  m_heading->setWordWrap(true);
  m_table->setObjectName(QStringLiteral("packetFields.table"));
  m_table->setModel(m_model);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setWordWrap(false);
  m_table->setAlternatingRowColors(true);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto* copy = new QShortcut(QKeySequence::Copy, m_table, nullptr, nullptr, Qt::WidgetShortcut);
  connect(copy, &QShortcut::activated, this, &PacketFieldsView::copySelectionAsCsv);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_heading);
  layout->addWidget(m_table, 1);
  showPacket(std::nullopt, {});
}

void PacketFieldsView::showPacket(const std::optional<PacketRecord>& packet, const CaptureInfo& capture) {
  m_model->setPacket(packet, capture);
  m_heading->setText(packet ? headingOf(*packet)
                            : tr("Click a mark on the timeline to see its packet's fields."));
  m_table->resizeColumnToContents(PacketFieldsModel::Name);
}

void PacketFieldsView::showNote(const QString& text) {
  showPacket(std::nullopt, {});
  m_heading->setText(text);
}

QString PacketFieldsView::heading() const { return m_heading->text(); }

QString PacketFieldsView::selectionCsv() const { return viewSelectionToCsv(*m_table); }

void PacketFieldsView::copySelectionAsCsv() {
  const QString text = selectionCsv();
  if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

}  // namespace rudp::gui
