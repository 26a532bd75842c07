#include "pages/connections_page.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>

#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include "report/inferred_dissector.h"

#include "models/connections_filter_model.h"
#include "models/connections_model.h"
#include "models/table_csv.h"

namespace rudp::gui {

namespace {
const QString kColumnsKey = QStringLiteral("connections/columns");  // id -> visible, user choices only

QString oneLine(QString title) { return title.replace(QLatin1Char('\n'), QLatin1Char(' ')); }
}  // namespace

ConnectionsPage::ConnectionsPage(QWidget* parent)
    : QWidget(parent),
      m_model(new ConnectionsModel(this)),
      m_proxy(new ConnectionsFilterModel(this)),
      m_table(new QTableView),
      m_filter(new QLineEdit),
      m_count(new QLabel) {
  m_proxy->setSourceModel(m_model);
  m_table->setObjectName(QStringLiteral("connections.table"));
  m_table->setModel(m_proxy);
  m_table->setSortingEnabled(true);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_table->horizontalHeader()->setSectionsMovable(true);
  m_table->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_table->horizontalHeader(), &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
    auto* menu = new QMenu(this);
    fillColumnMenu(menu);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(m_table->horizontalHeader()->mapToGlobal(p));
  });
  m_table->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_table, &QWidget::customContextMenuRequested, this, &ConnectionsPage::showRowMenu);
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { onCurrentChanged(current); });
  connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex& index) {
    if (const qint64 conn = connectionAt(index)) emit connectionActivated(conn);
  });
  connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &ConnectionsPage::updateCount);
  connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &ConnectionsPage::updateCount);
  connect(m_proxy, &QAbstractItemModel::modelReset, this, &ConnectionsPage::updateCount);

  auto* copy = new QShortcut(QKeySequence::Copy, m_table, nullptr, nullptr, Qt::WidgetShortcut);
  connect(copy, &QShortcut::activated, this, &ConnectionsPage::copySelectionAsCsv);
  auto* find = new QShortcut(QKeySequence::Find, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
  connect(find, &QShortcut::activated, this, &ConnectionsPage::focusFilter);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(makeToolBar());
  layout->addWidget(m_table, 1);
  updateCount();
}

QWidget* ConnectionsPage::makeToolBar() {
  auto* bar = new QWidget;
  auto* row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  m_filter->setObjectName(QStringLiteral("connections.filter"));
  m_filter->setPlaceholderText(tr("Filter: address, port, protocol, conn id (Ctrl+F)"));
  m_filter->setClearButtonEnabled(true);
  m_filter->setToolTip(
      tr("Keeps the connections whose protocol, client, server, conn id or number "
         "contain every word typed here."));
  connect(m_filter, &QLineEdit::textChanged, m_proxy, &ConnectionsFilterModel::setFilterText);
  connect(m_filter, &QLineEdit::textChanged, this, &ConnectionsPage::updateCount);

  auto* columns = new QToolButton;
  columns->setText(tr("Columns"));
  columns->setObjectName(QStringLiteral("connections.columns"));
  columns->setToolTip(tr("Choose the columns shown (also: right-click a column header)."));
  columns->setPopupMode(QToolButton::InstantPopup);
  auto* columnMenu = new QMenu(columns);
  connect(columnMenu, &QMenu::aboutToShow, this, [this, columnMenu] { fillColumnMenu(columnMenu); });
  columns->setMenu(columnMenu);

  auto* copy = new QPushButton(tr("Copy table as CSV"));
  copy->setObjectName(QStringLiteral("connections.copyCsv"));
  copy->setToolTip(
      tr("Copies every shown row and column to the clipboard as CSV (Ctrl+C copies the "
         "selected rows)."));
  connect(copy, &QPushButton::clicked, this, &ConnectionsPage::copyTableAsCsv);

  row->addWidget(m_filter, 1);
  m_count->setObjectName(QStringLiteral("connections.count"));
  row->addWidget(m_count);
  row->addWidget(columns);
  row->addWidget(copy);
  return bar;
}

void ConnectionsPage::fillColumnMenu(QMenu* menu) {
  menu->clear();
  for (int c = 0; c < m_model->columnCount(); ++c) {
    const ConnectionColumn& column = m_model->column(c);
    QAction* a = menu->addAction(oneLine(m_model->headerData(c, Qt::Horizontal).toString()));
    a->setCheckable(true);
    a->setChecked(!m_table->isColumnHidden(c));
    a->setToolTip(column.tip);
    const QString id = column.id;
    connect(a, &QAction::toggled, this, [this, id](bool on) { setColumnVisible(id, on); });
  }
}

void ConnectionsPage::setData(std::vector<ConnectionRecord> records, const AnalysisSettings& settings,
                              const CaptureInfo& capture) {
  m_model->setConnections(std::move(records), settings, capture);
  applyColumnVisibility();
  m_table->sortByColumn(m_model->columnOfId(QStringLiteral("badness")), Qt::DescendingOrder);
  m_table->resizeColumnsToContents();
  updateCount();
}

void ConnectionsPage::clear() { setData({}, {}, {}); }

void ConnectionsPage::updateData(std::vector<ConnectionRecord> records) {
  const bool first = m_model->rowCount() == 0;
  m_model->updateConnections(std::move(records));
  if (first && m_model->rowCount() > 0) m_table->resizeColumnsToContents();
  updateCount();
}

void ConnectionsPage::applyColumnVisibility() {
  const QVariantMap chosen = QSettings().value(kColumnsKey).toMap();
  for (int c = 0; c < m_model->columnCount(); ++c) {
    const ConnectionColumn& column = m_model->column(c);
    m_table->setColumnHidden(c, !chosen.value(column.id, !column.hiddenByDefault).toBool());
  }
}

void ConnectionsPage::setColumnVisible(const QString& id, bool visible) {
  const int c = m_model->columnOfId(id);
  if (c < 0) return;
  m_table->setColumnHidden(c, !visible);
  QSettings settings;
  QVariantMap chosen = settings.value(kColumnsKey).toMap();
  chosen.insert(id, visible);
  settings.setValue(kColumnsKey, chosen);
}

bool ConnectionsPage::isColumnVisible(const QString& id) const {
  const int c = m_model->columnOfId(id);
  return c >= 0 && !m_table->isColumnHidden(c);
}

void ConnectionsPage::updateCount() {
  const int shown = m_proxy->rowCount(), all = m_model->rowCount();
  const QString noun = all == 1 ? tr("connection") : tr("connections");
  m_count->setText(shown == all ? tr("%1 %2").arg(all).arg(noun)
                                : tr("%1 of %2 %3").arg(shown).arg(all).arg(noun));
}

void ConnectionsPage::focusFilter() {
  m_filter->setFocus(Qt::ShortcutFocusReason);
  m_filter->selectAll();
}

qint64 ConnectionsPage::connectionAt(const QModelIndex& proxyIndex) const {
  return proxyIndex.isValid() ? proxyIndex.data(ConnectionsModel::ConnectionIdRole).toLongLong() : 0;
}

void ConnectionsPage::onCurrentChanged(const QModelIndex& current) {
  if (m_selectingProgrammatically) return;
  if (const qint64 conn = connectionAt(current)) emit connectionActivated(conn);
}

void ConnectionsPage::showRowMenu(const QPoint& pos) {
  const qint64 conn = connectionAt(m_table->indexAt(pos));
  if (conn == 0) return;
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  QAction* open =
      menu->addAction(tr("Open in &Wireshark"), this, [this, conn] { emit openInWiresharkRequested(conn); });
  open->setObjectName(QStringLiteral("connections.openInWireshark"));
  open->setToolTip(tr("Writes this connection's packets to a temporary pcapng and opens it in Wireshark."));
  QAction* infer = menu->addAction(tr("Create &Dissector from This Flow…"), this,
                                   [this, conn] { emit createDissectorRequested(conn); });
  infer->setObjectName(QStringLiteral("connections.createDissector"));
  const int row = m_model->rowOfConnection(conn);
  infer->setEnabled(row >= 0 && report::hasInferredCounter(m_model->record(row)));
  infer->setToolTip(
      infer->isEnabled()
          ? tr("Writes a Lua dissector from the counter found in this flow's payloads, opens it "
               "in your editor and analyses the capture again with it.")
          : tr("Only for a flow no dissector claims whose payloads carry a sequence counter."));
  menu->setToolTipsVisible(true);
  menu->addAction(tr("&Copy Selected Rows as CSV"), this, &ConnectionsPage::copySelectionAsCsv);
  menu->popup(m_table->viewport()->mapToGlobal(pos));
}

void ConnectionsPage::selectConnection(qint64 conn) {
  const int sourceRow = m_model->rowOfConnection(conn);
  if (sourceRow < 0) return;
  QModelIndex index = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
  if (!index.isValid()) {  // filtered out
    m_filter->clear();
    index = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
  }
  m_selectingProgrammatically = true;
  m_table->selectionModel()->setCurrentIndex(index,
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  m_selectingProgrammatically = false;
  m_table->scrollTo(index);
}

qint64 ConnectionsPage::selectedConnection() const {
  return connectionAt(m_table->selectionModel()->currentIndex());
}

QString ConnectionsPage::csv() const { return viewToCsv(*m_table); }

QString ConnectionsPage::selectionCsv() const { return viewSelectionToCsv(*m_table); }

void ConnectionsPage::copyTableAsCsv() { QApplication::clipboard()->setText(csv()); }

void ConnectionsPage::copySelectionAsCsv() {
  const QString text = selectionCsv();
  if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

}  // namespace rudp::gui
