// Progress reporting and cancellation for synchronous work.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>

namespace rudp {

struct Progress {
  uint64_t done = 0;   // bytes (or items) done
  uint64_t total = 0;  // 0 when unknown
  uint64_t packets = 0;
  uint64_t connections = 0;  // seen so far
};

struct ProgressSink {
  // Called from the working thread every few thousand packets.
  std::function<void(const Progress&)> report;
  // Set from any thread; the work stops at the next check and throws Cancelled.
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

}  // namespace rudp
