#include "pages/timeline_page.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "jobs/capture_overview.h"
#include "jobs/capture_session.h"
#include "models/record_text.h"
#include "models/value_text.h"
#include "pages/packet_fields_view.h"
#include "widgets/timeline_view.h"

namespace rudp::gui {

namespace {

enum ViewStack { MessageStack, ViewStackIndex };

// Room around a zoomed range: a quarter of it on each side, at least 200 ms,
// so the build-up to a stall and its recovery are in view.
constexpr int64_t kMinMarginNs = 200'000'000;

QString connectionLabel(const ConnectionRecord& c) {
  const ConnectionSummary& s = c.summary;
  return QStringLiteral("#%1  %2  %3 ↔ %4")
      .arg(s.id)
      .arg(protocolText(c), QString::fromStdString(s.client), QString::fromStdString(s.server));
}

}  // namespace

TimelinePage::TimelinePage(CaptureSession& session, QWidget* parent)
    : QWidget(parent),
      m_session(session),
      m_connectionBox(new QComboBox(this)),
      m_directionButtons(new QButtonGroup(this)),
      m_state(new QLabel(this)),
      m_openInWireshark(new QToolButton(this)),
      m_viewStack(new QStackedWidget(this)) {
  m_state->setAlignment(Qt::AlignCenter);
  m_state->setForegroundRole(QPalette::PlaceholderText);
  m_viewStack->addWidget(m_state);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  m_view = new TimelineView(splitter);
  connect(m_view, &TimelineView::packetActivated, this, &TimelinePage::showPacket);
  connect(m_view, &TimelineView::directionChanged, this, &TimelinePage::setDirection);
  connect(m_view, &TimelineView::connectionStepRequested, this, &TimelinePage::stepConnection);
  m_fields = new PacketFieldsView(splitter);
  splitter->setStretchFactor(0, 4);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({1000, 300});
  m_viewStack->addWidget(splitter);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 6, 8, 8);
  layout->addWidget(makeToolBar());
  layout->addWidget(m_viewStack, 1);
  clear();
}

QWidget* TimelinePage::makeToolBar() {
  auto* bar = new QWidget(this);
  m_connectionBox->setObjectName(QStringLiteral("timeline.connection"));
  m_connectionBox->setMinimumContentsLength(40);
  m_connectionBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  connect(m_connectionBox, &QComboBox::activated, this,
          [this](int index) { showConnection(m_connectionBox->itemData(index).toLongLong()); });

  auto* layout = new QHBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Connection:"), bar));
  layout->addWidget(m_connectionBox, 1);
  layout->addSpacing(16);
  layout->addWidget(new QLabel(tr("Data direction:"), bar));
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    auto* button = new QToolButton(bar);
    button->setText(directionLongName(d));
    button->setCheckable(true);
    button->setObjectName(d == Direction::ClientToServer ? QStringLiteral("timeline.c2s")
                                                         : QStringLiteral("timeline.s2c"));
    button->setToolTip(
        tr("Show the RTT, retransmissions, losses and stalls of the %1 data").arg(directionLongName(d)));
    m_directionButtons->addButton(button, int(d));
    layout->addWidget(button);
  }
  layout->addSpacing(16);
  m_openInWireshark->setText(tr("Open in Wireshark"));
  m_openInWireshark->setObjectName(QStringLiteral("timeline.openInWireshark"));
  m_openInWireshark->setToolTip(
      tr("Opens the packets of this connection in the visible time range in Wireshark "
         "(the marked packet selected)."));
  connect(m_openInWireshark, &QToolButton::clicked, this, &TimelinePage::requestOpenInWireshark);
  layout->addWidget(m_openInWireshark);
  m_directionButtons->setExclusive(true);
  m_directionButtons->button(int(Direction::ClientToServer))->setChecked(true);
  connect(m_directionButtons, &QButtonGroup::idClicked, this,
          [this](int id) { setDirection(Direction(id)); });
  return bar;
}

void TimelinePage::setOverview(const CaptureOverview& overview) {
  clear();
  m_capture = overview.capture;
  for (const ConnectionRecord& c : overview.connections)
    m_connectionBox->addItem(connectionLabel(c), qlonglong(c.summary.id));
  m_state->setText(overview.connections.empty() ? tr("This capture has no connections.")
                                                : tr("Choose a connection."));
  if (const int64_t worst = worstConnection(overview)) want(worst);
}

void TimelinePage::clear() {
  m_timelineTracker.invalidate();
  m_packetTracker.invalidate();
  m_connectionBox->clear();
  m_capture = {};
  m_wantedConn = m_requestedConn = m_shownConn = 0;
  m_pendingRange.reset();
  m_state->setText(tr("No capture open."));
  m_viewStack->setCurrentIndex(MessageStack);
  m_openInWireshark->setEnabled(false);
  m_fields->showPacket(std::nullopt, m_capture);
}

void TimelinePage::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_wantedConn != 0 && m_wantedConn != m_requestedConn) load(m_wantedConn);
}

void TimelinePage::showConnection(int64_t conn) {
  m_pendingRange.reset();
  want(conn);
}

void TimelinePage::showRange(int64_t conn, Direction dir, int64_t start_ns, int64_t end_ns, uint64_t frame) {
  setDirection(dir);
  const Range range{start_ns, end_ns, frame};
  if (conn == m_shownConn && conn == m_requestedConn) return applyRange(range);
  m_pendingRange = range;
  want(conn);
}

// Loading a connection's timeline reads all its events: done only for what is
// on screen, so browsing the Connections page costs nothing.
void TimelinePage::want(int64_t conn) {
  if (conn == 0) return;
  const bool changed = conn != m_wantedConn;
  m_wantedConn = conn;
  m_connectionBox->setCurrentIndex(m_connectionBox->findData(qlonglong(conn)));
  if (changed) emit connectionChanged(conn);
  if (isVisible() && conn != m_requestedConn) load(conn);
}

void TimelinePage::setLive(bool live) { m_live = live; }

void TimelinePage::setLiveConnections(const std::vector<ConnectionRecord>& connections) {
  for (const ConnectionRecord& c : connections)
    if (m_connectionBox->findData(qlonglong(c.summary.id)) < 0)
      m_connectionBox->addItem(connectionLabel(c), qlonglong(c.summary.id));
  if (m_wantedConn == 0 && !connections.empty()) want(connections.front().summary.id);
  if (connections.empty()) m_state->setText(tr("No connections yet."));
}

void TimelinePage::setLiveData(std::shared_ptr<const TimelineData> data) {
  if (!m_live || !data || data->conn != m_wantedConn) return;
  const int64_t conn = data->conn;
  m_requestedConn = conn;
  if (conn == m_shownConn) return m_view->updateData(std::move(data));
  m_view->setData(std::move(data));
  m_view->setDirection(m_direction);
  m_shownConn = conn;
  m_viewStack->setCurrentIndex(ViewStackIndex);
  emit timelineShown(conn);
}

void TimelinePage::load(int64_t conn) {
  m_requestedConn = conn;
  if (m_live) {
    if (conn == m_shownConn) return m_viewStack->setCurrentIndex(ViewStackIndex);
    m_state->setText(tr("Waiting for the packets of connection #%1…").arg(conn));
    m_viewStack->setCurrentIndex(MessageStack);
    return;
  }
  m_state->setText(tr("Loading connection #%1…").arg(conn));
  m_openInWireshark->setEnabled(false);
  m_viewStack->setCurrentIndex(MessageStack);
  m_session.queries().run(
      m_timelineTracker, m_session.dbPath(),
      [conn](StoreReader& reader) {
        return std::make_shared<const TimelineData>(loadTimelineData(reader, conn));
      },
      [this, conn](std::shared_ptr<const TimelineData> data) {
        m_view->setData(std::move(data));
        m_view->setDirection(m_direction);
        m_shownConn = conn;
        m_viewStack->setCurrentIndex(ViewStackIndex);
        m_openInWireshark->setEnabled(true);
        if (m_pendingRange) applyRange(*std::exchange(m_pendingRange, std::nullopt));
        emit timelineShown(conn);
      },
      [this](const QString& message) { m_state->setText(tr("Cannot load the timeline: %1").arg(message)); });
}

void TimelinePage::setDirection(Direction dir) {
  m_direction = dir;
  m_directionButtons->button(int(dir))->setChecked(true);
  if (m_view->direction() != dir) m_view->setDirection(dir);
}

// PgDn / PgUp on the chart: the next or previous connection of the list.
void TimelinePage::stepConnection(int delta) {
  const int index = m_connectionBox->currentIndex() + delta;
  if (index >= 0 && index < m_connectionBox->count())
    showConnection(m_connectionBox->itemData(index).toLongLong());
}

void TimelinePage::applyRange(const Range& range) {
  const int64_t margin = std::max(kMinMarginNs, (range.end_ns - range.start_ns) / 4);
  m_view->zoomTo(range.start_ns - margin, range.end_ns + margin);
  if (range.frame != 0) {
    m_view->setMarkedFrame(range.frame);
    showPacket(range.frame);
  }
}

void TimelinePage::requestOpenInWireshark() {
  if (m_shownConn == 0 || m_viewStack->currentIndex() != ViewStackIndex) return;
  emit openInWiresharkRequested(m_shownConn, m_view->rangeStart(), m_view->rangeEnd(), m_view->markedFrame());
}

void TimelinePage::showPacket(quint64 frame) {
  if (m_live)
    return m_fields->showNote(tr("Frame %1: its fields can be read once the capture stops.").arg(frame));
  m_session.queries().run(
      m_packetTracker, m_session.dbPath(), [frame](StoreReader& reader) { return reader.packet(frame); },
      [this, frame](std::optional<PacketRecord> packet) {
        m_fields->showPacket(packet, m_capture);
        emit packetShown(frame);
      },
      [this](const QString& message) {
        m_fields->showPacket(std::nullopt, m_capture);
        qWarning("rudpscope: cannot read a packet: %s", qPrintable(message));
      });
}

}  // namespace rudp::gui
