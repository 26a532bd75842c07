// One kind of background request, as hotspot's JobTracker: every request
// takes the next id, and a result that comes back with an older id is stale
// (the user asked for something newer meanwhile) and is dropped. Each request
// has a cancel flag its work may poll; invalidate() raises it.
#pragma once
#include <QtGlobal>
#include <atomic>
#include <memory>

namespace rudp::gui {

class JobTracker {
 public:
  using CancelFlag = std::shared_ptr<std::atomic<bool>>;

  ~JobTracker() { invalidate(); }

  quint64 startJob() {
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    return ++m_current;
  }
  bool isCurrent(quint64 id) const { return id == m_current; }
  // The newest request has not delivered its result yet.
  bool isRunning() const { return m_running; }
  // The newest request's cancel flag (null before the first).
  const CancelFlag& cancelFlag() const { return m_cancel; }
  // A result of request `id` reached the UI thread: true when it is the
  // newest request's, to be delivered; false when stale.
  bool finish(quint64 id) {
    if (!isCurrent(id)) return false;
    m_running = false;
    return true;
  }
  // Makes every running request stale (a closed capture, a cancel) and asks
  // it to stop.
  void invalidate() {
    if (m_cancel) m_cancel->store(true);
    m_running = false;
    ++m_current;
  }

 private:
  quint64 m_current = 0;
  bool m_running = false;
  CancelFlag m_cancel;
};

}  // namespace rudp::gui
