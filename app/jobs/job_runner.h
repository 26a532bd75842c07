// The window's one way to run work off the UI thread (hotspot's JobTracker
// shape): a job runs on this runner's thread pool and returns a value, or
// throws; the value, or the exception's one-line message, comes back on the
// runner's (UI) thread to `done` or `fail`, unless the job's tracker started a
// newer request or was invalidated meanwhile (a stale result is dropped).
// A job that takes `const std::atomic<bool>&` may poll it to stop early: the
// tracker's invalidate() raises it. Ingest, live capture and compare run
// longer, on WorkerThread, under the same trackers.
#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "jobs/job_tracker.h"

namespace rudp::gui {

template <class T>
struct JobResult {
  std::optional<T> value;
  QString error;  // one line when value is empty
};

class JobRunner : public QObject {
 public:
  JobRunner(int threads, const QString& name, QObject* parent = nullptr);
  ~JobRunner() override;  // waits for the jobs still running

  // work: T() or T(const std::atomic<bool>& cancelled), run on a pool thread.
  // done: void(T), fail: void(QString), both called on this object's thread.
  template <class Work, class Done, class Fail>
  void run(JobTracker& tracker, Work work, Done done, Fail fail) {
    const quint64 id = tracker.startJob();
    start(std::move(work), tracker.cancelFlag(),
          [id, &tracker, done = std::move(done), fail = std::move(fail)](auto result) mutable {
            if (!tracker.finish(id)) return;
            if (result.value)
              done(std::move(*result.value));
            else
              fail(result.error);
          });
  }

  // The same for requests that never supersede one another (each Open in
  // Wireshark opens its own window): every result is delivered.
  template <class Work, class Done, class Fail>
  void runEach(Work work, Done done, Fail fail) {
    start(std::move(work), std::make_shared<std::atomic<bool>>(false),
          [done = std::move(done), fail = std::move(fail)](auto result) mutable {
            if (result.value)
              done(std::move(*result.value));
            else
              fail(result.error);
          });
  }

  // Blocks until every started job has finished (tests, shutdown).
  void waitForDone();

 private:
  template <class Work>
  static auto call(Work& work, const std::atomic<bool>& cancelled) {
    if constexpr (std::is_invocable_v<Work&, const std::atomic<bool>&>)
      return work(cancelled);
    else
      return work();
  }

  // Runs `work` on the pool; hands its JobResult to `deliver` on this thread.
  template <class Work, class Deliver>
  void start(Work work, JobTracker::CancelFlag cancel, Deliver deliver) {
    using T = decltype(call(work, std::declval<const std::atomic<bool>&>()));
    auto* watcher = new QFutureWatcher<JobResult<T>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [watcher, deliver = std::move(deliver)]() mutable {
      JobResult<T> result = watcher->future().takeResult();
      watcher->deleteLater();
      deliver(std::move(result));
    });
    watcher->setFuture(
        QtConcurrent::run(&m_pool, [work = std::move(work), cancel = std::move(cancel)]() mutable {
          JobResult<T> result;
          try {
            result.value.emplace(call(work, *cancel));
          } catch (const std::exception& e) { result.error = QString::fromStdString(e.what()); }
          return result;
        }));
  }

  QThreadPool m_pool;
};

}  // namespace rudp::gui
