#include "pages/summary_page.h"

#include <QDateTime>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTimeZone>
#include <QTreeView>
#include <QVBoxLayout>

#include "jobs/capture_overview.h"
#include "models/record_text.h"
#include "models/value_text.h"

namespace rudp::gui {

namespace {

enum Column { KindColumn, TextColumn, AtColumn, ColumnCount };

struct KindLook {
  QString label;
  QColor colour;
};

KindLook kindLook(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::Stall: return {QObject::tr("Stall"), QColor(0xd6, 0x45, 0x41)};
    case ProblemKind::RetransmissionRun: return {QObject::tr("Retransmissions"), QColor(0xe6, 0x7e, 0x22)};
    case ProblemKind::LossBurst: return {QObject::tr("Loss burst"), QColor(0xe6, 0x7e, 0x22)};
    case ProblemKind::RttOverLimit: return {QObject::tr("RTT"), QColor(0xd4, 0xa0, 0x17)};
    case ProblemKind::HighLoss: return {QObject::tr("Loss"), QColor(0xd4, 0xa0, 0x17)};
    case ProblemKind::CaptureWarning: return {QObject::tr("Capture"), QColor(0x8e, 0x8e, 0x93)};
    case ProblemKind::NotDecoded: return {QObject::tr("Not decoded"), QColor(0x5b, 0x8d, 0xd6)};
    case ProblemKind::RateChange: return {QObject::tr("Rate change"), QColor(0x8e, 0x6c, 0xc0)};
  }
  return {QObject::tr("Problem"), Qt::gray};
}

QIcon dotIcon(const QColor& colour) {
  QPixmap pixmap(12, 12);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(Qt::NoPen);
  painter.setBrush(colour);
  painter.drawEllipse(QRectF(1, 1, 10, 10));
  return QIcon(pixmap);
}

// "20.098 s", "3 min 12.5 s", "2 h 05 min".
QString durationText(double seconds) {
  if (seconds < 60) return QString::number(seconds, 'f', 3) + QStringLiteral(" s");
  const qint64 whole = qint64(seconds);
  const qint64 minutes = whole / 60;
  if (seconds < 3600)
    return QStringLiteral("%1 min %2 s").arg(minutes).arg(seconds - 60.0 * double(minutes), 0, 'f', 1);
  return QStringLiteral("%1 h %2 min").arg(whole / 3600).arg((whole % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString vantageFactText(const CaptureOverview& o) {
  if (o.vantageConnections == 0) return QObject::tr("unknown");
  QString text = vantageText(o.vantage);
  if (o.vantageConnections < o.connections.size())
    text += QObject::tr(" (%1 of %2 connections)").arg(o.vantageConnections).arg(o.connections.size());
  return text;
}

QString linkTypeText(const CaptureInfo& c) {
  return QStringLiteral("%1 (%2)").arg(QString::fromStdString(c.link_type_name)).arg(c.link_type);
}

}  // namespace

SummaryPage::SummaryPage(QWidget* parent)
    : QWidget(parent),
      m_title(new QLabel(this)),
      m_path(new QLabel(this)),
      m_problemsHeading(new QLabel(this)),
      m_noProblems(new QLabel(tr("No problems found: no stalls, loss bursts or RTT over the limits."), this)),
      m_problemsModel(new QStandardItemModel(0, ColumnCount, this)),
      m_problemsView(new QTreeView(this)) {
  QFont titleFont = m_title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.5);
  titleFont.setBold(true);
  m_title->setFont(titleFont);
  m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_path->setForegroundRole(QPalette::PlaceholderText);

  auto* facts = new QGridLayout;
  facts->setHorizontalSpacing(16);
  facts->setVerticalSpacing(6);
  const QList<QPair<QString, QString>> factNames = {
      {"size", tr("Size")},          {"duration", tr("Duration")}, {"packets", tr("Packets")},
      {"link", tr("Link type")},     {"vantage", tr("Vantage")},   {"connections", tr("Connections")},
      {"start", tr("First packet")}, {"format", tr("Format")},     {"stall", tr("Stall threshold")},
      {"database", tr("Database")}};
  for (int i = 0; i < factNames.size(); ++i) addFact(facts, i, factNames[i].first, factNames[i].second);
  facts->setColumnStretch(5, 1);

  QFont headingFont = m_problemsHeading->font();
  headingFont.setBold(true);
  headingFont.setPointSizeF(headingFont.pointSizeF() * 1.15);
  m_problemsHeading->setFont(headingFont);

  m_problemsModel->setHorizontalHeaderLabels({tr("Kind"), tr("Problem"), tr("At (s)")});
  m_problemsView->setObjectName(QStringLiteral("summary.problems"));
  m_problemsView->setModel(m_problemsModel);
  m_problemsView->setRootIsDecorated(false);
  m_problemsView->setUniformRowHeights(true);
  m_problemsView->setAlternatingRowColors(true);
  m_problemsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_problemsView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_problemsView->setCursor(Qt::PointingHandCursor);
  m_problemsView->setToolTip(
      tr("Click a problem to see it on the timeline; right-click to open its packets in Wireshark"));
  m_problemsView->header()->setStretchLastSection(false);
  m_problemsView->header()->setSectionResizeMode(TextColumn, QHeaderView::Stretch);
  m_problemsView->header()->setSectionResizeMode(KindColumn, QHeaderView::ResizeToContents);
  m_problemsView->header()->setSectionResizeMode(AtColumn, QHeaderView::ResizeToContents);
  // One click: a problem is a link to its place on the timeline.
  connect(m_problemsView, &QTreeView::clicked, this, [this](const QModelIndex& i) { activateRow(i.row()); });
  connect(m_problemsView, &QTreeView::activated, this,
          [this](const QModelIndex& i) { activateRow(i.row()); });
  m_problemsView->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_problemsView, &QWidget::customContextMenuRequested, this, &SummaryPage::showProblemMenu);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(18, 14, 18, 14);
  layout->addWidget(m_title);
  layout->addWidget(m_path);
  layout->addSpacing(10);
  layout->addLayout(facts);
  layout->addSpacing(14);
  layout->addWidget(m_problemsHeading);
  layout->addWidget(m_noProblems);
  layout->addWidget(m_problemsView, 1);
  layout->addStretch(0);  // takes the room a short list leaves (fitProblemsView)
  clear();
}

QLabel* SummaryPage::addFact(QGridLayout* grid, int index, const QString& key, const QString& title) {
  // Three columns of title/value pairs, filled row by row.
  const int row = index / 3, column = (index % 3) * 2;
  auto* name = new QLabel(title + QLatin1Char(':'), this);
  name->setForegroundRole(QPalette::PlaceholderText);
  auto* value = new QLabel(this);
  value->setObjectName(QStringLiteral("fact.") + key);
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  grid->addWidget(name, row, column, Qt::AlignRight | Qt::AlignTop);
  grid->addWidget(value, row, column + 1, Qt::AlignLeft | Qt::AlignTop);
  return value;
}

void SummaryPage::setFact(const QString& key, const QString& text, const QString& toolTip) {
  auto* label = findChild<QLabel*>(QStringLiteral("fact.") + key);
  Q_ASSERT(label);
  label->setText(text);
  label->setToolTip(toolTip);
}

void SummaryPage::clear() {
  m_title->setText(tr("No capture"));
  m_path->clear();
  for (QLabel* label : findChildren<QLabel*>())
    if (label->objectName().startsWith(QLatin1String("fact."))) label->clear();
  m_problems.clear();
  m_problemsModel->removeRows(0, m_problemsModel->rowCount());
  m_problemsHeading->setText(tr("Problems"));
  m_noProblems->hide();
}

void SummaryPage::setOverview(const CaptureOverview& overview, const QString& dbPath, bool reused) {
  fillFacts(overview, dbPath, reused);
  fillProblems(overview);
}

void SummaryPage::fillFacts(const CaptureOverview& o, const QString& dbPath, bool reused) {
  const CaptureInfo& c = o.capture;
  const QString path = QString::fromStdString(c.path);
  m_title->setText(QFileInfo(path).fileName());
  m_path->setText(path);
  setFact("size", QLocale().formattedDataSize(qint64(c.size)), tr("%1 bytes").arg(c.size));
  setFact("duration", durationText(relativeSeconds(c.last_ts_ns, c.first_ts_ns)));
  setFact("packets", countText(c.packet_count));
  setFact("link", linkTypeText(c));
  setFact("vantage", vantageFactText(o));
  setFact("connections", countText(o.connections.size()));
  setFact("start", QDateTime::fromMSecsSinceEpoch(c.first_ts_ns / 1'000'000, QTimeZone::utc())
                       .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'")));
  setFact("format", QString::fromStdString(c.format) + (c.truncated ? tr(" (truncated)") : QString()),
          QString::fromStdString(c.warning));
  setFact("stall", tr("%1 ms").arg(o.settings.stall_ms));
  setFact("database",
          QFileInfo(dbPath).fileName() + (reused ? tr(" (earlier analysis)") : tr(" (analysed now)")),
          dbPath);
}

void SummaryPage::fillProblems(const CaptureOverview& o) {
  m_problems = o.problems;
  m_problemsModel->removeRows(0, m_problemsModel->rowCount());
  for (const Problem& p : m_problems) {
    const KindLook look = kindLook(p.kind);
    auto* kind = new QStandardItem(dotIcon(look.colour), look.label);
    auto* text = new QStandardItem(QString::fromStdString(p.text));
    text->setToolTip(text->text());
    const bool placed = p.start_ns != 0 || p.end_ns != 0;
    auto* at =
        new QStandardItem(placed ? relativeSecondsText(p.start_ns, o.capture.first_ts_ns, 3) : missingText());
    at->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_problemsModel->appendRow({kind, text, at});
  }
  m_problemsHeading->setText(m_problems.empty() ? tr("Problems")
                                                : tr("Problems (%1), worst first").arg(m_problems.size()));
  m_noProblems->setVisible(m_problems.empty());
  m_problemsView->setVisible(!m_problems.empty());
  fitProblemsView();
}

// A short list keeps its lines together under the facts instead of spreading
// an empty box over the page; a long one takes the page and scrolls.
void SummaryPage::fitProblemsView() {
  const int rows = m_problemsModel->rowCount();
  const int rowHeight = rows > 0 ? m_problemsView->sizeHintForRow(0) : 0;
  const int content = m_problemsView->header()->sizeHint().height() + rows * rowHeight +
                      2 * m_problemsView->frameWidth() +
                      m_problemsView->horizontalScrollBar()->sizeHint().height();
  m_problemsView->setMaximumHeight(std::max(content, 3 * rowHeight));
}

void SummaryPage::activateRow(int row) {
  if (row >= 0 && size_t(row) < m_problems.size()) emit problemActivated(m_problems[size_t(row)]);
}

void SummaryPage::showProblemMenu(const QPoint& pos) {
  const int row = m_problemsView->indexAt(pos).row();
  if (row < 0 || size_t(row) >= m_problems.size()) return;
  const Problem p = m_problems[size_t(row)];
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->setToolTipsVisible(true);
  menu->addAction(tr("Show on &Timeline"), this, [this, row] { activateRow(row); });
  QAction* open = menu->addAction(tr("Open in &Wireshark"), this, [this, p] {
    emit openInWiresharkRequested(p.conn, p.start_ns, p.end_ns, p.frame);
  });
  open->setObjectName(QStringLiteral("summary.openInWireshark"));
  open->setEnabled(p.conn != 0);
  open->setToolTip(p.conn != 0 ? tr("Opens this connection's packets from a second before the problem to a "
                                    "second after it in Wireshark, its first packet selected.")
                               : tr("This is about the capture as a whole, not one connection."));
  menu->popup(m_problemsView->viewport()->mapToGlobal(pos));
}

}  // namespace rudp::gui
