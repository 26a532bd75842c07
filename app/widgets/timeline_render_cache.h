// The timeline's rendered image, made off the UI thread: a frame can take
// 5-20 ms with 100k-point series, too long to block wheel and drag events.
// One render runs at a time (QtConcurrent); a newer request waits as the
// next one and replaces any older waiting request. The scene is copied into
// the job (its data is shared and immutable), so nothing is shared with the
// UI thread but the finished image.
#pragma once
#include <QFutureWatcher>
#include <QImage>
#include <QObject>
#include <QSize>
#include <optional>

#include "widgets/timeline_scene.h"

namespace rudp::gui {

class TimelineRenderCache : public QObject {
  Q_OBJECT
 public:
  struct Frame {
    QImage image;
    int64_t t0 = 0, t1 = 0;  // the time range it shows
    uint64_t revision = 0;   // the view state it shows
  };

  explicit TimelineRenderCache(QObject* parent = nullptr);
  ~TimelineRenderCache() override;

  // The newest image (null before the first). Unless it shows `revision`,
  // rendering `revision` is started or queued.
  const Frame* request(const TimelineScene& scene, QSize size, qreal dpr, uint64_t revision);
  // Renders on the calling thread (the first paint, a resize).
  void renderNow(const TimelineScene& scene, QSize size, qreal dpr, uint64_t revision);
  const Frame* latest() const { return m_frame ? &*m_frame : nullptr; }
  bool busy() const { return m_running || m_next.has_value(); }

 signals:
  // A newer image is ready.
  void updated();

 private:
  struct Job {
    TimelineScene scene;
    QSize size;
    qreal dpr = 1;
    uint64_t revision = 0;
  };
  static Frame render(const Job& job);
  void start(Job job);
  void finished();

  std::optional<Frame> m_frame;
  QFutureWatcher<Frame> m_watcher;
  bool m_running = false;
  uint64_t m_runningRevision = 0;
  std::optional<Job> m_next;
};

}  // namespace rudp::gui
