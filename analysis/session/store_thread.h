// Feeds the single SQLite writer from its own thread, so inserting rows
// overlaps with reading and dissecting. Batches are handed over whole and
// recycled, so steady state allocates nothing; the queue is bounded, so
// memory does not grow with the capture.
#pragma once
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "store/analysis_writer.h"
#include "store/store_writer.h"

namespace rudp {

struct RowBatch {
  std::vector<PacketRow> rows;
  std::vector<uint32_t> seg_begin;  // rows[i]'s segments: segs[seg_begin[i] .. seg_begin[i+1])
  std::vector<Segment> segs;
  std::vector<std::pair<uint64_t, std::string>> errors;  // frame, message
  std::vector<IcmpErrorRecord> icmp_errors;
  // Connection-analysis events, by connection id.
  std::vector<std::pair<int64_t, ana::RttEvent>> rtts;
  std::vector<std::pair<int64_t, ana::RetransmissionEvent>> retx;
  std::vector<std::pair<int64_t, ana::LossEvent>> losses;
  std::vector<std::pair<int64_t, ana::StallEvent>> stalls;
  std::vector<std::pair<int64_t, ana::RateEvent>> rates;
  std::vector<std::pair<int64_t, ana::ConnectionMetrics>> metrics;  // finished connections
  std::vector<std::unique_ptr<Connection>> closed;                  // connections the flow table closed

  void clear() {
    rows.clear();
    seg_begin.clear();
    segs.clear();
    errors.clear();
    icmp_errors.clear();
    rtts.clear();
    retx.clear();
    losses.clear();
    stalls.clear();
    rates.clear();
    metrics.clear();
    closed.clear();
  }
  void add(const PacketRow& r, const std::vector<Segment>& s) {
    seg_begin.push_back(static_cast<uint32_t>(segs.size()));
    rows.push_back(r);
    segs.insert(segs.end(), s.begin(), s.end());
  }
};

class StoreThread {
 public:
  // `threaded` false: write() writes inline (no thread).
  StoreThread(StoreWriter& writer, AnalysisWriter& analysis, bool threaded);
  ~StoreThread();  // stops the thread; unwritten batches are dropped

  // A batch to fill; give it back with write().
  std::unique_ptr<RowBatch> take();
  // Queues the batch (blocks while the queue is full). Rethrows the writer
  // thread's error (a full disk, ...) on the caller's thread.
  void write(std::unique_ptr<RowBatch> b);
  // Waits until everything queued is written; rethrows a writer error.
  void flush();

 private:
  void run();
  void writeBatch(RowBatch& b);
  void rethrow();

  StoreWriter& writer_;
  AnalysisWriter& analysis_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<RowBatch>> queue_, free_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
  static constexpr size_t kMaxQueued = 4;
};

}  // namespace rudp
