// Applies a display filter on a worker thread. A filter over the columns the
// database keeps for every frame (the request's stored_condition) is read
// from its frame index (StoreReader::framesWhere, a reader opened in the
// worker); any other reads the capture again
// (scanFramesPassing) and sends the frames it passes as they come, with
// progress, so the list fills while it runs. cancel() stops at the next
// check. Every signal carries the job's id: the owner drops a stale job's.
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "jobs/worker_thread.h"
#include "lua/dissector_files.h"
#include "store/frame_condition.h"

namespace rudp::gui {

struct FilterRequest {
  QString db, capture, filter;
  DissectorOptions dissectors;
  int64_t first_ts_ns = 0;
  // The filter as a query on stored columns, found by the bar's checker (the
  // job then loads no dissectors); none: the capture is read again.
  std::optional<FrameCondition> stored_condition;
};

class FilterJob : public QObject {
  Q_OBJECT
 public:
  FilterJob(quint64 id, FilterRequest request, QObject* parent = nullptr);
  ~FilterJob() override;  // cancels and waits for the worker

  quint64 id() const { return m_id; }
  void start();
  void cancel();

 signals:
  // fromDatabase: the whole answer at once, from the stored columns.
  void started(quint64 id, bool fromDatabase);
  void passed(quint64 id, const std::vector<uint64_t>& frames);
  void progressed(quint64 id, double fraction, quint64 framesRead);
  void finished(quint64 id, quint64 framesRead);
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  void work();
  void post(std::function<void()> f) { postTo(this, std::move(f)); }

  quint64 m_id;
  FilterRequest m_request;
  std::atomic<bool> m_cancel{false};
  WorkerThread m_worker;  // last: joined before the members it uses go
};

}  // namespace rudp::gui
