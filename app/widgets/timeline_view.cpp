#include "widgets/timeline_view.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>
#include <utility>

#include "widgets/chart_export.h"
#include "widgets/crosshair_painter.h"
#include "widgets/timeline_hit_tester.h"
#include "widgets/timeline_renderer.h"

namespace rudp::gui {

namespace {
constexpr int kClickSlop = 3;       // pixels a click may move and stay a click
constexpr double kWheelZoom = 0.8;  // span factor per wheel notch

// The value the y keys zoom around. RTT and rates start at zero and the
// usual values sit near it (one outage sample can stretch the RTT lane to
// seconds), so their baseline stays put and each press halves towards it;
// sequence numbers zoom around the middle.
double keyZoomAnchor(Lane lane, ValueSpan current) {
  return lane == Lane::Sequence ? (current.min + current.max) / 2 : current.min;
}

// The connection's span with a little air on both sides, so the first and
// last marks are not cut.
std::pair<int64_t, int64_t> paddedSpan(const TimelineData* data) {
  if (!data) return {0, 1'000'000'000};
  const int64_t span = std::max<int64_t>(data->last_ns - data->first_ns, 1'000'000);
  const int64_t pad = std::max<int64_t>(span / 100, 1'000'000);
  return {data->first_ns - pad, data->last_ns + pad};
}
}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  connect(&m_renderCache, &TimelineRenderCache::updated, this, qOverload<>(&QWidget::update));
}

TimelineView::~TimelineView() = default;

void TimelineView::setData(std::shared_ptr<const TimelineData> data) {
  m_data = std::move(data);
  m_markedFrame.reset();
  const int64_t oldStart = m_viewport.start(), oldEnd = m_viewport.end();
  const auto [start, end] = paddedSpan(m_data.get());
  m_viewport.setFullRange(start, end);
  viewChanged();
  rangeMaybeChanged(oldStart, oldEnd);
}

void TimelineView::updateData(std::shared_ptr<const TimelineData> data) {
  if (!m_data || !data || data->conn != m_data->conn) return setData(std::move(data));
  m_data = std::move(data);
  const int64_t oldStart = m_viewport.start(), oldEnd = m_viewport.end();
  const auto [start, end] = paddedSpan(m_data.get());
  m_viewport.followFullRange(start, end);
  viewChanged();
  rangeMaybeChanged(oldStart, oldEnd);
}

void TimelineView::setDirection(Direction d) {
  if (d == m_direction) return;
  m_direction = d;
  // The other direction's values have other scales: back to automatic.
  m_viewport.resetValues();
  viewChanged();
  emit directionChanged(d);
}

void TimelineView::setLimitLines(std::vector<double> ms) {
  m_limitLines = std::move(ms);
  viewChanged();
}

void TimelineView::setTimeRange(int64_t startNs, int64_t endNs) {
  const int64_t s = m_viewport.start(), e = m_viewport.end();
  m_viewport.setRange(startNs, endNs);
  viewChanged();
  rangeMaybeChanged(s, e);
}

void TimelineView::resetZoom() {
  const int64_t s = m_viewport.start(), e = m_viewport.end();
  m_viewport.reset();
  viewChanged();
  rangeMaybeChanged(s, e);
}

ValueSpan TimelineView::valueRange(Lane lane) const { return effectiveValueRange(scene(), lane); }

void TimelineView::setMarkedFrame(uint64_t frame) {
  m_markedFrame = frame ? std::optional(frame) : std::nullopt;
  viewChanged();
}

void TimelineView::setLayerVisible(Layer layer, bool visible) {
  m_layers = visible ? m_layers | static_cast<uint32_t>(layer) : m_layers & ~static_cast<uint32_t>(layer);
  viewChanged();
}

void TimelineView::setCrosshairEnabled(bool on) {
  m_crosshair = on;
  if (!on) QToolTip::hideText();
  update();
}

TimelineScene TimelineView::scene() const {
  TimelineScene s;
  s.data = m_data;
  s.direction = m_direction;
  s.t0 = m_viewport.start();
  s.t1 = m_viewport.end();
  for (Lane lane : kAllLanes) s.manualY[static_cast<size_t>(lane)] = m_viewport.valueRange(lane);
  s.limitLinesMs = m_limitLines ? *m_limitLines : (m_data ? m_data->rttLimitsMs : std::vector<double>{});
  s.markedFrame = m_markedFrame;
  s.layers = m_layers;
  s.colours = ChartColours::fromPalette(palette());
  s.font = font();
  return s;
}

TimelineGeometry TimelineView::geometry() const { return TimelineGeometry::compute(scene(), size()); }

std::optional<TimelineHit> TimelineView::hitTest(QPoint p) const {
  const TimelineScene s = scene();
  return TimelineHitTester(s, TimelineGeometry::compute(s, size())).hitTest(p);
}

double TimelineView::xForTime(int64_t ns) const { return geometry().time.x(ns); }
int64_t TimelineView::timeForX(double x) const { return geometry().time.time(x); }
QRect TimelineView::laneRect(Lane lane) const { return geometry().layout.lane(lane); }

bool TimelineView::exportPng(const QString& path, QSize size) const {
  const TimelineScene s = scene();
  return exportChartPng(path, exportSize(this, size),
                        [&](QPainter& p, QSize sz) { TimelineRenderer::paint(p, s, sz); });
}

bool TimelineView::exportSvg(const QString& path, QSize size) const {
  const TimelineScene s = scene();
  return exportChartSvg(path, exportSize(this, size), QStringLiteral("Connection timeline"),
                        [&](QPainter& p, QSize sz) { TimelineRenderer::paint(p, s, sz); });
}

void TimelineView::viewChanged() {
  ++m_revision;
  update();
}

bool TimelineView::renderPending() const {
  const auto* latest = m_renderCache.latest();
  return m_renderCache.busy() || !latest || latest->revision != m_revision;
}

void TimelineView::rangeMaybeChanged(int64_t oldStart, int64_t oldEnd) {
  if (oldStart != m_viewport.start() || oldEnd != m_viewport.end())
    emit rangeChanged(m_viewport.start(), m_viewport.end());
}

void TimelineView::paintEvent(QPaintEvent*) {
  const TimelineScene s = scene();
  const TimelineGeometry g = TimelineGeometry::compute(s, size());
  const qreal dpr = devicePixelRatioF();
  const auto* latest = m_renderCache.latest();
  // Nothing to show yet, or an image of another size: render here.
  if (!latest || latest->image.size() != size() * dpr || (!m_async && latest->revision != m_revision))
    m_renderCache.renderNow(s, size(), dpr, m_revision);
  const auto* frame = m_renderCache.request(s, size(), dpr, m_revision);
  QPainter p(this);
  p.drawImage(QPoint(0, 0), frame->image);
  if (frame->revision != m_revision) paintStale(p, *frame, g, s.colours.plot);
  paintOverlay(p, g);
}

// The last image's plot stretched to the current time range, so a pan or a
// zoom follows the mouse before its own image is ready.
void TimelineView::paintStale(QPainter& p, const TimelineRenderCache::Frame& f, const TimelineGeometry& g,
                              const QColor& fill) {
  const QRect& plot = g.layout.plot;
  const double x0 = g.time.x(f.t0), x1 = g.time.x(f.t1);
  if (x1 - x0 > 64.0 * plot.width()) return;  // too far in to show anything useful
  const qreal dpr = f.image.devicePixelRatio();
  p.save();
  p.setClipRect(plot);
  p.fillRect(plot, fill);
  p.drawImage(QRectF(x0, plot.top(), x1 - x0, plot.height()), f.image,
              QRectF(plot.left() * dpr, plot.top() * dpr, plot.width() * dpr, plot.height() * dpr));
  p.restore();
}

void TimelineView::paintOverlay(QPainter& p, const TimelineGeometry& g) {
  if (m_drag && m_drag->rubberBand && m_drag->moved) {
    const TimelineScene s = scene();
    p.setPen(QPen(s.colours.text, 1, Qt::DashLine));
    p.setBrush(s.colours.rubberBand);
    p.drawRect(QRect(m_drag->from, m_drag->to).normalized());
  }
  if (m_crosshair && m_hover && !m_drag) {
    const TimelineScene s = scene();
    CrosshairPainter(s, g).paint(p, *m_hover);
  }
}

void TimelineView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) viewChanged();
  QWidget::changeEvent(e);
}

void TimelineView::applyStep(const ViewStep& step, std::optional<int64_t> anchor,
                             std::optional<double> valueAnchor) {
  const int64_t s = m_viewport.start(), e = m_viewport.end();
  if (step.zoomX != 1) m_viewport.zoomX(step.zoomX, anchor.value_or(s + (e - s) / 2));
  if (step.panX != 0) m_viewport.panX(step.panX);
  if (step.zoomY != 1 && m_activeLane != Lane::Events) {
    const ValueSpan current = valueRange(m_activeLane);
    m_viewport.zoomY(m_activeLane, step.zoomY, current,
                     valueAnchor.value_or(keyZoomAnchor(m_activeLane, current)));
  }
  if (step.panY != 0 && m_activeLane != Lane::Events)
    m_viewport.panY(m_activeLane, step.panY, valueRange(m_activeLane));
  viewChanged();
  rangeMaybeChanged(s, e);
}

void TimelineView::trigger(TimelineAction action) {
  if (const auto step = viewStepOf(action)) {
    applyStep(*step, std::nullopt);
    return;
  }
  using A = TimelineAction;
  switch (action) {
    case A::Reset: resetZoom(); break;
    case A::ToggleCrosshair: setCrosshairEnabled(!m_crosshair); break;
    case A::ToggleDragMode: m_dragMode = m_dragMode == DragMode::Pan ? DragMode::Zoom : DragMode::Pan; break;
    case A::SwitchDirection:
      setDirection(m_direction == Direction::ClientToServer ? Direction::ServerToClient
                                                            : Direction::ClientToServer);
      break;
    case A::GoToPacket:
      if (m_hover)
        if (const auto hit = hitTest(*m_hover)) emit packetActivated(hit->frame);
      break;
    case A::NextConnection: emit connectionStepRequested(1); break;
    case A::PreviousConnection: emit connectionStepRequested(-1); break;
    case A::SavePng: saveAs(false); break;
    case A::SaveSvg: saveAs(true); break;
    default: break;
  }
}

void TimelineView::saveAs(bool svg) {
  const TimelineScene s = scene();
  saveChartAs(this, svg, size(), QStringLiteral("Connection timeline"),
              [&](QPainter& p, QSize sz) { TimelineRenderer::paint(p, s, sz); });
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
  if (const auto action = timelineActionForKey(e->key(), e->modifiers())) {
    trigger(*action);
    e->accept();
    return;
  }
  QWidget::keyPressEvent(e);
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
  Drag d;
  d.from = d.to = e->position().toPoint();
  d.start = m_viewport.start();
  d.end = m_viewport.end();
  d.rubberBand = m_dragMode == DragMode::Zoom || (e->modifiers() & Qt::ControlModifier);
  d.lane = geometry().layout.laneAt(d.from);
  m_drag = d;
  QToolTip::hideText();
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
  const QPoint at = e->position().toPoint();
  if (!m_drag) return updateHover(at);
  m_drag->to = at;
  m_drag->moved = m_drag->moved || (at - m_drag->from).manhattanLength() > kClickSlop;
  if (!m_drag->moved) return;
  if (m_drag->rubberBand) {
    update();
    return;
  }
  const double nsPerPixel = static_cast<double>(m_drag->end - m_drag->start) / geometry().time.width;
  const auto shift = static_cast<int64_t>(std::llround((m_drag->from.x() - at.x()) * nsPerPixel));
  setTimeRange(m_drag->start + shift, m_drag->end + shift);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || !m_drag) return QWidget::mouseReleaseEvent(e);
  const Drag d = *m_drag;
  m_drag.reset();
  if (!d.moved) {
    if (const auto hit = hitTest(d.from)) emit packetActivated(hit->frame);
  } else if (d.rubberBand) {
    finishRubberBand(d);
  }
  update();
}

// The band's time span; its value span too when it stayed within one lane.
void TimelineView::finishRubberBand(const Drag& d) {
  const TimelineGeometry g = geometry();
  const QRect band = QRect(d.from, d.to).normalized();
  if (band.width() < kClickSlop) return;
  const int64_t s = m_viewport.start(), e = m_viewport.end();
  m_viewport.setRange(g.time.time(band.left()), g.time.time(band.right() + 1));
  if (d.lane && *d.lane != Lane::Events && band.height() > kClickSlop &&
      g.layout.lane(*d.lane).contains(band)) {
    const ValueAxis& a = g.axis(*d.lane);
    m_viewport.setValueRange(*d.lane, {a.value(band.bottom() + 1), a.value(band.top())});
  }
  viewChanged();
  rangeMaybeChanged(s, e);
}

void TimelineView::updateHover(QPoint at) {
  m_hover = at;
  const TimelineGeometry g = geometry();
  if (const auto lane = g.layout.laneAt(at); lane && *lane != Lane::Events) m_activeLane = *lane;
  if (m_crosshair) {
    const TimelineScene s = scene();
    const auto hit = TimelineHitTester(s, g).hitTest(at);
    if (g.layout.plot.contains(at))
      QToolTip::showText(mapToGlobal(at) + QPoint(16, 16), CrosshairPainter(s, g).text(at, hit), this);
    else
      QToolTip::hideText();
  }
  update();
}

void TimelineView::wheelEvent(QWheelEvent* e) {
  const double notches = e->angleDelta().y() / 120.0;
  if (notches == 0) return;
  const QPoint at = e->position().toPoint();
  if (const auto lane = geometry().layout.laneAt(at)) m_activeLane = *lane;
  const double factor = std::pow(kWheelZoom, notches);
  if (e->modifiers() & Qt::ShiftModifier)
    applyStep({1, 1, -notches * kPanStep, 0}, std::nullopt);
  else if (e->modifiers() & Qt::ControlModifier)
    applyStep({1, factor, 0, 0}, std::nullopt, geometry().axis(m_activeLane).value(at.y() + 0.5));
  else
    applyStep({factor, 1, 0, 0}, timeForX(at.x() + 0.5));
  e->accept();
}

void TimelineView::leaveEvent(QEvent*) {
  m_hover.reset();
  QToolTip::hideText();
  update();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e) {
  QMenu menu(this);
  for (const TimelineActionInfo& info : timelineActions()) {
    if (!info.inMenu) continue;
    if (info.action == TimelineAction::Reset || info.action == TimelineAction::ToggleCrosshair ||
        info.action == TimelineAction::NextConnection || info.action == TimelineAction::SavePng)
      menu.addSeparator();
    QString text = QString::fromLatin1(info.text);
    if (*info.keys) text += QLatin1Char('\t') + QString::fromLatin1(info.keys);
    QAction* a = menu.addAction(text, this, [this, action = info.action] { trigger(action); });
    if (info.action == TimelineAction::ToggleCrosshair) {
      a->setCheckable(true);
      a->setChecked(m_crosshair);
    }
  }
  menu.exec(e->globalPos());
}

}  // namespace rudp::gui
