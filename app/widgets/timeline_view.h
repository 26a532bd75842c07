// The connection timeline: charts of one connection stacked on one shared
// time axis (RTT with SRTT/RTO/limit lines; retransmission and loss marks;
// tcptrace sequence graph; packet and byte rates) with stall and
// head-of-line bands across all of them. One direction at a time (D or
// setDirection switches).
//
// Interaction: wheel zooms time around the mouse (Ctrl+wheel: the values of
// the lane under it, around the value under the mouse; Shift+wheel pans); left drag pans (in zoom mode, or
// with Ctrl, it draws a rubber band to zoom into); a click on a mark, point or band emits packetActivated;
// keys as in timeline_actions.h; the right-click menu lists the actions. Y-axis zoom and pan apply to the
// lane under the mouse (the RTT lane until the mouse has been over one); the y keys zoom the RTT and rate
// lanes towards zero, so after an outage spike stretched the RTT lane to seconds, a few presses of y show the
// usual range (the default range always holds every value: nothing is clipped unasked).
//
// The chart is painted by TimelineRenderer into an image, off the UI thread
// (TimelineRenderCache), only when the view changes; until the new image is
// ready the last one is shown stretched to the new range. The crosshair and
// the rubber band are drawn over it.
#pragma once
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "widgets/timeline_actions.h"
#include "widgets/timeline_data.h"
#include "widgets/timeline_hit.h"
#include "widgets/timeline_render_cache.h"
#include "widgets/timeline_scene.h"
#include "widgets/timeline_viewport.h"

namespace rudp::gui {

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  enum class DragMode { Pan, Zoom };

  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  // Shows the connection's whole span (the zoom is reset). Null clears.
  void setData(std::shared_ptr<const TimelineData> data);
  const std::shared_ptr<const TimelineData>& data() const { return m_data; }
  // Newer data of the same connection (a live capture): the whole span stays
  // whole, a view ending at the live edge follows it, one the user moved
  // away stays put; value zooms and the marked packet are kept. Another
  // connection's data is setData.
  void updateData(std::shared_ptr<const TimelineData> data);

  void setDirection(Direction d);
  Direction direction() const { return m_direction; }

  // The genre's RTT limit lines (ms). Until called, the database's limits
  // (TimelineData::rttLimitsMs) are drawn.
  void setLimitLines(std::vector<double> ms);

  void setTimeRange(int64_t startNs, int64_t endNs);  // clamped to the connection's span
  void zoomTo(int64_t startNs, int64_t endNs) { setTimeRange(startNs, endNs); }
  void resetZoom();
  int64_t rangeStart() const { return m_viewport.start(); }
  int64_t rangeEnd() const { return m_viewport.end(); }
  int64_t fullStart() const { return m_viewport.fullStart(); }
  int64_t fullEnd() const { return m_viewport.fullEnd(); }
  // The values a lane shows (automatic unless zoomed or panned in y).
  ValueSpan valueRange(Lane lane) const;
  // The lane y-axis keys and Ctrl+wheel act on.
  Lane activeLane() const { return m_activeLane; }
  void setActiveLane(Lane lane) { m_activeLane = lane; }

  // A cursor at that packet's time; 0 clears.
  void setMarkedFrame(uint64_t frame);
  uint64_t markedFrame() const { return m_markedFrame.value_or(0); }  // 0: none
  void setLayerVisible(Layer layer, bool visible);
  void setCrosshairEnabled(bool on);
  bool crosshairEnabled() const { return m_crosshair; }
  void setDragMode(DragMode m) { m_dragMode = m; }

  // Runs an action as its key would.
  void trigger(TimelineAction action);

  // Geometry for tests and for the page (widget coordinates).
  std::optional<TimelineHit> hitTest(QPoint p) const;
  double xForTime(int64_t ns) const;
  int64_t timeForX(double x) const;
  QRect laneRect(Lane lane) const;

  // The same paint code at any size.
  // An invalid size exports at the widget's size (its size hint when hidden).
  bool exportPng(const QString& path, QSize size = {}) const;
  bool exportSvg(const QString& path, QSize size = {}) const;
  // What is drawn now (for rendering elsewhere: benchmarks, other threads).
  TimelineScene scene() const;
  // Off: every change is rendered in paintEvent on the UI thread.
  void setAsyncRendering(bool on) { m_async = on; }
  // The image on screen is not yet the current view's (a render is running).
  bool renderPending() const;

  QSize sizeHint() const override { return {1000, 720}; }
  QSize minimumSizeHint() const override { return {360, 360}; }

 signals:
  void packetActivated(quint64 frame);
  void rangeChanged(qint64 startNs, qint64 endNs);
  void directionChanged(rudp::Direction direction);
  // PgDn (+1) / PgUp (-1): the page may step to the next connection.
  void connectionStepRequested(int delta);

 protected:
  void paintEvent(QPaintEvent* e) override;
  void changeEvent(QEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void leaveEvent(QEvent* e) override;
  void contextMenuEvent(QContextMenuEvent* e) override;

 private:
  struct Drag {
    QPoint from, to;
    int64_t start = 0, end = 0;  // the range when it began
    bool rubberBand = false, moved = false;
    std::optional<Lane> lane;
  };

  TimelineGeometry geometry() const;
  void viewChanged();  // repaint the chart
  void rangeMaybeChanged(int64_t oldStart, int64_t oldEnd);
  // `anchor`: the time that keeps its pixel (default the middle);
  // `valueAnchor`: the value that does (default keyZoomAnchor).
  void applyStep(const ViewStep& step, std::optional<int64_t> anchor, std::optional<double> valueAnchor = {});
  void finishRubberBand(const Drag& d);
  void updateHover(QPoint at);
  void paintOverlay(QPainter& p, const TimelineGeometry& g);
  void paintStale(QPainter& p, const TimelineRenderCache::Frame& f, const TimelineGeometry& g,
                  const QColor& fill);
  void saveAs(bool svg);

  std::shared_ptr<const TimelineData> m_data;
  Direction m_direction = Direction::ClientToServer;
  TimelineViewport m_viewport;
  std::optional<std::vector<double>> m_limitLines;
  std::optional<uint64_t> m_markedFrame;
  uint32_t m_layers = kAllLayers;
  bool m_crosshair = true;
  DragMode m_dragMode = DragMode::Pan;
  Lane m_activeLane = Lane::Rtt;
  std::optional<Drag> m_drag;
  std::optional<QPoint> m_hover;

  TimelineRenderCache m_renderCache;
  uint64_t m_revision = 1;  // bumped by every change of what is drawn
  bool m_async = true;
};

}  // namespace rudp::gui
