// One kind of background request, as hotspot's JobTracker: every request
// takes the next id, and a result that comes back with an older id is stale
// (the user asked for something newer meanwhile) and is dropped.
#pragma once
#include <QtGlobal>

namespace rudp::gui {

class JobTracker {
 public:
  quint64 startJob() { return ++m_current; }
  bool isCurrent(quint64 id) const { return id == m_current; }
  // Makes every running request stale (a closed capture).
  void invalidate() { ++m_current; }

 private:
  quint64 m_current = 0;
};

}  // namespace rudp::gui
