#include "pages/statistics_page.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableView>
#include <QVBoxLayout>

#include "models/direction_figures_model.h"
#include "models/loss_burst_model.h"
#include "models/stalls_model.h"
#include "models/table_csv.h"
#include "pages/statistics_charts.h"

namespace rudp::gui {

namespace {
QWidget* titled(const QString& title, QWidget* content) {
  auto* box = new QWidget;
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
  layout->addWidget(label);
  layout->addWidget(content, 1);
  return box;
}

QString headingOf(const StatisticsData& d) {
  if (d.conn == 0) return QObject::tr("No connection chosen: pick one on the Connections or Timeline page.");
  return QObject::tr("Connection %1 · %2 · %3 → %4")
      .arg(d.conn)
      .arg(QString::fromStdString(d.protocol), QString::fromStdString(d.client),
           QString::fromStdString(d.server));
}
}  // namespace

StatisticsPage::StatisticsPage(QWidget* parent)
    : QWidget(parent),
      m_heading(new QLabel),
      m_charts(new StatisticsCharts),
      m_figures(new DirectionFiguresModel(this)),
      m_bursts(new LossBurstModel(this)),
      m_stalls(new StallsModel(this)),
      m_stallsSorted(new QSortFilterProxyModel(this)) {
  m_heading->setObjectName(QStringLiteral("statistics.heading"));
  m_stallsSorted->setSourceModel(m_stalls);
  m_stallsSorted->setSortRole(StallsModel::RawRole);
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(m_charts);
  splitter->addWidget(makeTables());
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_heading);
  layout->addWidget(splitter, 1);
  clear();
}

QTableView* StatisticsPage::makeTable(const QString& name) {
  auto* t = new QTableView;
  t->setObjectName(name);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setWordWrap(false);
  t->setAlternatingRowColors(true);
  t->verticalHeader()->hide();
  t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  t->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  t->horizontalHeader()->setStretchLastSection(true);
  t->installEventFilter(this);
  return t;
}

QWidget* StatisticsPage::makeTables() {
  m_figuresTable = makeTable(QStringLiteral("statistics.figures"));
  m_figuresTable->setModel(m_figures);
  m_burstTable = makeTable(QStringLiteral("statistics.lossBursts"));
  m_burstTable->setModel(m_bursts);
  m_stallTable = makeTable(QStringLiteral("statistics.stalls"));
  m_stallTable->setModel(m_stallsSorted);
  m_stallTable->setSortingEnabled(true);
  m_stallTable->setSelectionMode(QAbstractItemView::SingleSelection);
  connect(m_stallTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { emitStall(current); });
  connect(m_stallTable, &QAbstractItemView::activated, this, &StatisticsPage::emitStall);
  m_stallTable->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_stallTable, &QWidget::customContextMenuRequested, this, &StatisticsPage::showStallMenu);
  m_lastFocused = m_stallTable;

  auto* tables = new QSplitter(Qt::Horizontal);
  tables->addWidget(titled(tr("Figures"), m_figuresTable));
  tables->addWidget(titled(tr("Loss bursts"), m_burstTable));
  tables->addWidget(
      titled(tr("Stalls (select one to see it on the timeline, right-click for Wireshark)"), m_stallTable));
  tables->setStretchFactor(0, 3);
  tables->setStretchFactor(1, 2);
  tables->setStretchFactor(2, 5);
  return tables;
}

void StatisticsPage::setData(StatisticsData data) {
  m_data = std::move(data);
  m_heading->setText(headingOf(m_data));
  m_charts->setData(m_data);
  m_figures->setStatistics(m_data);
  m_bursts->setBursts({m_data.dir[0].loss_bursts, m_data.dir[1].loss_bursts});
  m_stalls->setStalls(m_data.stalls, m_data.capture_start_ns);
  m_stallTable->sortByColumn(StallsModel::Start, Qt::AscendingOrder);
  for (QTableView* t : {m_figuresTable, m_burstTable, m_stallTable}) t->resizeColumnsToContents();
}

void StatisticsPage::clear() { setData({}); }

void StatisticsPage::emitStall(const QModelIndex& proxyIndex) {
  // A right click selects the row for its menu: staying here for the menu.
  if (!proxyIndex.isValid() || (QGuiApplication::mouseButtons() & Qt::RightButton)) return;
  const StallRow& s = m_stalls->stall(m_stallsSorted->mapToSource(proxyIndex).row());
  emit stallActivated(s.conn, s.stall.dir, s.stall.start_ns, s.stall.end_ns);
}

void StatisticsPage::showStallMenu(const QPoint& pos) {
  const QModelIndex index = m_stallTable->indexAt(pos);
  if (!index.isValid()) return;
  const StallRow s = m_stalls->stall(m_stallsSorted->mapToSource(index).row());
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->setToolTipsVisible(true);
  menu->addAction(tr("Show on &Timeline"), this,
                  [this, s] { emit stallActivated(s.conn, s.stall.dir, s.stall.start_ns, s.stall.end_ns); });
  QAction* open = menu->addAction(tr("Open in &Wireshark"), this, [this, s] {
    emit openInWiresharkRequested(s.conn, s.stall.start_ns, s.stall.end_ns, s.stall.first_frame);
  });
  open->setObjectName(QStringLiteral("statistics.openInWireshark"));
  open->setToolTip(
      tr("Opens this connection's packets from a second before the stall to a second after "
         "it in Wireshark, the packet that started the wait selected."));
  menu->popup(m_stallTable->viewport()->mapToGlobal(pos));
}

bool StatisticsPage::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::FocusIn)
    for (QTableView* t : {m_figuresTable, m_burstTable, m_stallTable})
      if (watched == t) m_lastFocused = t;
  return QWidget::eventFilter(watched, event);
}

QString StatisticsPage::csv() const { return viewToCsv(*m_lastFocused); }

QWidget* StatisticsPage::charts() const { return m_charts; }

bool StatisticsPage::exportPng(const QString& path) const { return m_charts->grab().save(path, "PNG"); }

bool StatisticsPage::exportSvg(const QString& path) const {
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(m_charts->size());
  svg.setViewBox(m_charts->rect());
  svg.setTitle(headingOf(m_data));
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  m_charts->render(&painter);
  return painter.end();
}

}  // namespace rudp::gui
