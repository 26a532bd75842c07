#include "pages/matrix_panel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <set>
#include <tuple>

#include "compare/labels.h"
#include "compare/metric_list.h"
#include "models/value_text.h"
#include "widgets/matrix_chart.h"

namespace rudp::gui {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QComboBox* makeBox(const char* name) {
  auto* box = new QComboBox;
  box->setObjectName(QLatin1String(name));
  // Narrow enough that the page never widens the window; the list is as wide as its items.
  box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  box->setMinimumContentsLength(8);
  return box;
}
}  // namespace

MatrixPanel::MatrixPanel(QWidget* parent)
    : QWidget(parent),
      m_metric(makeBox("matrix.metric")),
      m_x(makeBox("matrix.x")),
      m_group(makeBox("matrix.group")),
      m_panel(makeBox("matrix.panel")),
      m_direction(makeBox("matrix.direction")),
      m_chart(new MatrixChart),
      m_skipped(new QLabel) {
  for (const cmp::MetricInfo& m : cmp::comparisonMetrics()) m_metric->addItem(qs(m.title), qs(m.key));
  m_metric->setMinimumContentsLength(28);  // "Share of responses over 300 ms" whole
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
    m_direction->addItem(directionLongName(d), static_cast<int>(d));
  m_chart->setObjectName(QStringLiteral("matrix.chart"));
  m_skipped->setObjectName(QStringLiteral("matrix.skipped"));
  m_skipped->setWordWrap(true);
  m_skipped->setTextInteractionFlags(Qt::TextSelectableByMouse);

  // Two rows: what is drawn, then how it is laid out (one row would widen the window).
  auto* boxes = new QGridLayout;
  const std::tuple<const char*, QComboBox*, int> cells[] = {{"&Metric", m_metric, 0},
                                                            {"&Direction", m_direction, 0},
                                                            {"&X axis", m_x, 1},
                                                            {"&Lines by", m_group, 1},
                                                            {"&Panels by", m_panel, 1}};
  int column[2] = {0, 0};
  for (const auto& [text, box, row] : cells) {
    auto* label = new QLabel(tr(text));
    label->setBuddy(box);
    boxes->addWidget(label, row, column[row]++);
    boxes->addWidget(box, row, column[row]++, Qt::AlignLeft);
  }
  boxes->setColumnStretch(6, 1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(boxes);
  layout->addWidget(m_chart, 1);
  layout->addWidget(m_skipped);
  for (QComboBox* box : {m_metric, m_x, m_group, m_panel, m_direction})
    connect(box, &QComboBox::currentIndexChanged, this, [this] {
      if (!m_filling) rebuild();
    });
  connect(m_chart, &MatrixChart::pointActivated, this, [this](const MatrixChart::PointRef& ref) {
    const cmp::MatrixPoint& pt = m_chart->point(ref);
    emit captureActivated(qs(pt.capture), pt.conn, m_chart->matrix().request.dir);
  });
  rebuild();
}

void MatrixPanel::setRows(std::vector<cmp::DirectionComparison> rows) {
  // The boxes' choice carries over to a new set; the first set gets the default.
  const cmp::MatrixRequest wanted = m_rows.empty() ? cmp::MatrixRequest{} : request();
  m_rows = std::move(rows);
  fillLabelBoxes();
  setRequest(wanted);
}

void MatrixPanel::setBoxItems(QComboBox* box, const QStringList& items, bool allowNone) {
  box->clear();
  if (allowNone) box->addItem(tr("(none)"), QString());
  for (const QString& item : items) box->addItem(item, item);
}

void MatrixPanel::chooseData(QComboBox* box, const QString& data) {
  const int i = box->findData(data);
  if (i >= 0) box->setCurrentIndex(i);
}

void MatrixPanel::fillLabelBoxes() {
  std::set<std::string> keys;
  for (const cmp::DirectionComparison& d : m_rows)
    for (const auto& [key, value] : d.labels) keys.insert(key);
  QStringList items;
  for (const std::string& k : keys) items << qs(k);
  m_filling = true;
  setBoxItems(m_x, items, false);
  setBoxItems(m_group, items, true);
  setBoxItems(m_panel, items, true);
  m_filling = false;
}

void MatrixPanel::setRequest(const cmp::MatrixRequest& request) {
  m_filling = true;
  chooseData(m_metric, qs(request.metric));
  chooseData(m_x, qs(request.x));
  // A group or panel label the captures lack is none, not the first label.
  m_group->setCurrentIndex(std::max(0, m_group->findData(qs(request.group))));
  m_panel->setCurrentIndex(std::max(0, m_panel->findData(qs(request.panel))));
  m_direction->setCurrentIndex(m_direction->findData(static_cast<int>(request.dir)));
  m_filling = false;
  rebuild();
}

cmp::MatrixRequest MatrixPanel::request() const {
  cmp::MatrixRequest r;
  if (m_metric->currentIndex() >= 0) r.metric = m_metric->currentData().toString().toStdString();
  if (m_x->currentIndex() >= 0) r.x = m_x->currentData().toString().toStdString();
  if (m_group->currentIndex() >= 0) r.group = m_group->currentData().toString().toStdString();
  if (m_panel->currentIndex() >= 0) r.panel = m_panel->currentData().toString().toStdString();
  if (m_direction->currentIndex() >= 0) r.dir = static_cast<Direction>(m_direction->currentData().toInt());
  return r;
}

void MatrixPanel::rebuild() {
  if (m_rows.empty()) {
    m_chart->clear();
    m_skipped->setText(tr("Open a capture set (File > Open Capture Set…) to draw its matrix."));
    return;
  }
  if (m_x->count() == 0) {
    m_chart->clear();
    m_skipped->setText(
        tr("The captures have no labels: name them like tcp-cubic_loss5_delay50.pcap or "
           "give each a .labels file (loss=5 delay=50 stack=tcp-cubic)."));
    return;
  }
  try {
    cmp::Matrix matrix = cmp::buildMatrix(m_rows, request());
    QStringList skipped;
    for (const std::string& s : matrix.skipped) skipped << qs(s);
    m_skipped->setText(skipped.isEmpty() ? QString()
                                         : tr("Left out: %1").arg(skipped.join(QStringLiteral("; "))));
    m_chart->setMatrix(std::move(matrix));
  } catch (const cmp::CompareError& e) {
    m_chart->clear();
    m_skipped->setText(qs(e.what()));
  }
}

QString MatrixPanel::skippedText() const { return m_skipped->text(); }

}  // namespace rudp::gui
