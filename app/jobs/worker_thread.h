// The one thread a background job (IngestJob, CompareJob, LiveCaptureJob)
// runs its work on, and the way results go back to the job's (UI) thread.
// Declare it as the job's last member: its destructor waits for the work to
// end, so the members the work uses are still alive while it finishes (the
// job asks the work to stop first, in its own destructor).
#pragma once
#include <QString>
#include <functional>

class QObject;
class QThread;

namespace rudp::gui {

class WorkerThread {
 public:
  WorkerThread() = default;
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;
  ~WorkerThread();

  // Starts `work` on a new thread named `name` (seen in debuggers and perf); once.
  void start(const QString& name, std::function<void()> work);

 private:
  QThread* m_thread = nullptr;
};

// Runs `f` on `receiver`'s thread, queued: a worker's results cross threads
// as the values `f` captures.
void postTo(QObject* receiver, std::function<void()> f);

}  // namespace rudp::gui
