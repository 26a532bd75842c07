#include "widgets/timeline_render_cache.h"

#include <QtConcurrent/QtConcurrentRun>

#include "widgets/timeline_renderer.h"

namespace rudp::gui {

TimelineRenderCache::TimelineRenderCache(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<Frame>::finished, this, &TimelineRenderCache::finished);
}

// A running job owns copies of everything it reads; it finishes on its own.
TimelineRenderCache::~TimelineRenderCache() = default;

TimelineRenderCache::Frame TimelineRenderCache::render(const Job& job) {
  return Frame{TimelineRenderer::render(job.scene, job.size, job.dpr), job.scene.t0, job.scene.t1,
               job.revision};
}

const TimelineRenderCache::Frame* TimelineRenderCache::request(const TimelineScene& scene, QSize size,
                                                               qreal dpr, uint64_t revision) {
  const bool shown = frame_ && frame_->revision == revision;
  const bool coming = running_ && runningRevision_ == revision;
  if (!shown && !coming) {
    Job job{scene, size, dpr, revision};
    if (running_)
      next_ = std::move(job);
    else
      start(std::move(job));
  }
  return latest();
}

void TimelineRenderCache::renderNow(const TimelineScene& scene, QSize size, qreal dpr, uint64_t revision) {
  frame_ = render(Job{scene, size, dpr, revision});
  if (next_ && next_->revision <= revision) next_.reset();
}

void TimelineRenderCache::start(Job job) {
  running_ = true;
  runningRevision_ = job.revision;
  watcher_.setFuture(QtConcurrent::run([job = std::move(job)] { return render(job); }));
}

void TimelineRenderCache::finished() {
  running_ = false;
  Frame done = watcher_.result();
  // A synchronous render may have overtaken this one.
  if (!frame_ || done.revision > frame_->revision) {
    frame_ = std::move(done);
    emit updated();
  }
  if (next_) {
    Job job = std::move(*next_);
    next_.reset();
    if (!frame_ || job.revision > frame_->revision) start(std::move(job));
  }
}

}  // namespace rudp::gui
