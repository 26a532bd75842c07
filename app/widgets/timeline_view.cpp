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
  connect(&renderCache_, &TimelineRenderCache::updated, this, qOverload<>(&QWidget::update));
}

TimelineView::~TimelineView() = default;

void TimelineView::setData(std::shared_ptr<const TimelineData> data) {
  data_ = std::move(data);
  markedFrame_.reset();
  const int64_t oldStart = viewport_.start(), oldEnd = viewport_.end();
  const auto [start, end] = paddedSpan(data_.get());
  viewport_.setFullRange(start, end);
  viewChanged();
  rangeMaybeChanged(oldStart, oldEnd);
}

void TimelineView::updateData(std::shared_ptr<const TimelineData> data) {
  if (!data_ || !data || data->conn != data_->conn) return setData(std::move(data));
  data_ = std::move(data);
  const int64_t oldStart = viewport_.start(), oldEnd = viewport_.end();
  const auto [start, end] = paddedSpan(data_.get());
  viewport_.followFullRange(start, end);
  viewChanged();
  rangeMaybeChanged(oldStart, oldEnd);
}

void TimelineView::setDirection(Direction d) {
  if (d == direction_) return;
  direction_ = d;
  // The other direction's values have other scales: back to automatic.
  viewport_.resetValues();
  viewChanged();
  emit directionChanged(d);
}

void TimelineView::setLimitLines(std::vector<double> ms) {
  limitLines_ = std::move(ms);
  viewChanged();
}

void TimelineView::setTimeRange(int64_t startNs, int64_t endNs) {
  const int64_t s = viewport_.start(), e = viewport_.end();
  viewport_.setRange(startNs, endNs);
  viewChanged();
  rangeMaybeChanged(s, e);
}

void TimelineView::resetZoom() {
  const int64_t s = viewport_.start(), e = viewport_.end();
  viewport_.reset();
  viewChanged();
  rangeMaybeChanged(s, e);
}

ValueSpan TimelineView::valueRange(Lane lane) const { return effectiveValueRange(scene(), lane); }

void TimelineView::setMarkedFrame(uint64_t frame) {
  markedFrame_ = frame ? std::optional(frame) : std::nullopt;
  viewChanged();
}

void TimelineView::setLayerVisible(Layer layer, bool visible) {
  layers_ = visible ? layers_ | static_cast<uint32_t>(layer) : layers_ & ~static_cast<uint32_t>(layer);
  viewChanged();
}

void TimelineView::setCrosshairEnabled(bool on) {
  crosshair_ = on;
  if (!on) QToolTip::hideText();
  update();
}

TimelineScene TimelineView::scene() const {
  TimelineScene s;
  s.data = data_;
  s.direction = direction_;
  s.t0 = viewport_.start();
  s.t1 = viewport_.end();
  for (Lane lane : kAllLanes) s.manualY[static_cast<size_t>(lane)] = viewport_.valueRange(lane);
  s.limitLinesMs = limitLines_ ? *limitLines_ : (data_ ? data_->rttLimitsMs : std::vector<double>{});
  s.markedFrame = markedFrame_;
  s.layers = layers_;
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
  ++revision_;
  update();
}

bool TimelineView::renderPending() const {
  const auto* latest = renderCache_.latest();
  return renderCache_.busy() || !latest || latest->revision != revision_;
}

void TimelineView::rangeMaybeChanged(int64_t oldStart, int64_t oldEnd) {
  if (oldStart != viewport_.start() || oldEnd != viewport_.end())
    emit rangeChanged(viewport_.start(), viewport_.end());
}

void TimelineView::paintEvent(QPaintEvent*) {
  const TimelineScene s = scene();
  const TimelineGeometry g = TimelineGeometry::compute(s, size());
  const qreal dpr = devicePixelRatioF();
  const auto* latest = renderCache_.latest();
  // Nothing to show yet, or an image of another size: render here.
  if (!latest || latest->image.size() != size() * dpr || (!async_ && latest->revision != revision_))
    renderCache_.renderNow(s, size(), dpr, revision_);
  const auto* frame = renderCache_.request(s, size(), dpr, revision_);
  QPainter p(this);
  p.drawImage(QPoint(0, 0), frame->image);
  if (frame->revision != revision_) paintStale(p, *frame, g, s.colours.plot);
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
  if (drag_ && drag_->rubberBand && drag_->moved) {
    const TimelineScene s = scene();
    p.setPen(QPen(s.colours.text, 1, Qt::DashLine));
    p.setBrush(s.colours.rubberBand);
    p.drawRect(QRect(drag_->from, drag_->to).normalized());
  }
  if (crosshair_ && hover_ && !drag_) {
    const TimelineScene s = scene();
    CrosshairPainter(s, g).paint(p, *hover_);
  }
}

void TimelineView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) viewChanged();
  QWidget::changeEvent(e);
}

void TimelineView::applyStep(const ViewStep& step, std::optional<int64_t> anchor,
                             std::optional<double> valueAnchor) {
  const int64_t s = viewport_.start(), e = viewport_.end();
  if (step.zoomX != 1) viewport_.zoomX(step.zoomX, anchor.value_or(s + (e - s) / 2));
  if (step.panX != 0) viewport_.panX(step.panX);
  if (step.zoomY != 1 && activeLane_ != Lane::Events) {
    const ValueSpan current = valueRange(activeLane_);
    viewport_.zoomY(activeLane_, step.zoomY, current,
                    valueAnchor.value_or(keyZoomAnchor(activeLane_, current)));
  }
  if (step.panY != 0 && activeLane_ != Lane::Events)
    viewport_.panY(activeLane_, step.panY, valueRange(activeLane_));
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
    case A::ToggleCrosshair: setCrosshairEnabled(!crosshair_); break;
    case A::ToggleDragMode: dragMode_ = dragMode_ == DragMode::Pan ? DragMode::Zoom : DragMode::Pan; break;
    case A::SwitchDirection:
      setDirection(direction_ == Direction::ClientToServer ? Direction::ServerToClient
                                                           : Direction::ClientToServer);
      break;
    case A::GoToPacket:
      if (hover_)
        if (const auto hit = hitTest(*hover_)) emit packetActivated(hit->frame);
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
  d.start = viewport_.start();
  d.end = viewport_.end();
  d.rubberBand = dragMode_ == DragMode::Zoom || (e->modifiers() & Qt::ControlModifier);
  d.lane = geometry().layout.laneAt(d.from);
  drag_ = d;
  QToolTip::hideText();
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
  const QPoint at = e->position().toPoint();
  if (!drag_) return updateHover(at);
  drag_->to = at;
  drag_->moved = drag_->moved || (at - drag_->from).manhattanLength() > kClickSlop;
  if (!drag_->moved) return;
  if (drag_->rubberBand) {
    update();
    return;
  }
  const double nsPerPixel = static_cast<double>(drag_->end - drag_->start) / geometry().time.width;
  const auto shift = static_cast<int64_t>(std::llround((drag_->from.x() - at.x()) * nsPerPixel));
  setTimeRange(drag_->start + shift, drag_->end + shift);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || !drag_) return QWidget::mouseReleaseEvent(e);
  const Drag d = *drag_;
  drag_.reset();
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
  const int64_t s = viewport_.start(), e = viewport_.end();
  viewport_.setRange(g.time.time(band.left()), g.time.time(band.right() + 1));
  if (d.lane && *d.lane != Lane::Events && band.height() > kClickSlop &&
      g.layout.lane(*d.lane).contains(band)) {
    const ValueAxis& a = g.axis(*d.lane);
    viewport_.setValueRange(*d.lane, {a.value(band.bottom() + 1), a.value(band.top())});
  }
  viewChanged();
  rangeMaybeChanged(s, e);
}

void TimelineView::updateHover(QPoint at) {
  hover_ = at;
  const TimelineGeometry g = geometry();
  if (const auto lane = g.layout.laneAt(at); lane && *lane != Lane::Events) activeLane_ = *lane;
  if (crosshair_) {
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
  if (const auto lane = geometry().layout.laneAt(at)) activeLane_ = *lane;
  const double factor = std::pow(kWheelZoom, notches);
  if (e->modifiers() & Qt::ShiftModifier)
    applyStep({1, 1, -notches * kPanStep, 0}, std::nullopt);
  else if (e->modifiers() & Qt::ControlModifier)
    applyStep({1, factor, 0, 0}, std::nullopt, geometry().axis(activeLane_).value(at.y() + 0.5));
  else
    applyStep({factor, 1, 0, 0}, timeForX(at.x() + 0.5));
  e->accept();
}

void TimelineView::leaveEvent(QEvent*) {
  hover_.reset();
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
      a->setChecked(crosshair_);
    }
  }
  menu.exec(e->globalPos());
}

}  // namespace rudp::gui
