#include "session/store_thread.h"

#include <pthread.h>

namespace rudp {

StoreThread::StoreThread(StoreWriter& writer, AnalysisWriter& analysis, bool threaded)
    : writer_(writer), analysis_(analysis) {
  if (threaded)
    thread_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "rudp-store");  // for profilers
      run();
    });
}

StoreThread::~StoreThread() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::unique_ptr<RowBatch> StoreThread::take() {
  std::lock_guard<std::mutex> lock(mu_);
  if (free_.empty()) return std::make_unique<RowBatch>();
  auto b = std::move(free_.front());
  free_.pop_front();
  b->clear();
  return b;
}

void StoreThread::writeBatch(RowBatch& b) {
  for (size_t i = 0; i < b.rows.size(); ++i) {
    const uint32_t end = i + 1 < b.rows.size() ? b.seg_begin[i + 1] : static_cast<uint32_t>(b.segs.size());
    writer_.addPacket(b.rows[i], b.segs.data() + b.seg_begin[i], end - b.seg_begin[i]);
  }
  for (const auto& [frame, msg] : b.errors) writer_.addPacketError(frame, msg);
  for (const IcmpErrorRecord& e : b.icmp_errors) writer_.addIcmpError(e);
  for (const auto& [conn, e] : b.rtts) analysis_.rtt(conn, e);
  for (const auto& [conn, e] : b.retx) analysis_.retransmission(conn, e);
  for (const auto& [conn, e] : b.losses) analysis_.loss(conn, e);
  for (const auto& [conn, e] : b.stalls) analysis_.stall(conn, e);
  for (const auto& [conn, e] : b.rates) analysis_.rate(conn, e);
  for (const auto& [conn, m] : b.metrics) analysis_.metrics(conn, m);
  writer_.flushPackets();
  for (const auto& c : b.closed) writer_.addConnection(*c);
}

void StoreThread::rethrow() {
  if (error_) std::rethrow_exception(error_);
}

void StoreThread::write(std::unique_ptr<RowBatch> b) {
  if (!thread_.joinable()) {
    writeBatch(*b);
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(b));
    return;
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return queue_.size() < kMaxQueued || error_; });
  rethrow();
  queue_.push_back(std::move(b));
  cv_.notify_all();
}

void StoreThread::flush() {
  if (!thread_.joinable()) return;
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return (queue_.empty() && !busy_) || error_; });
  rethrow();
}

void StoreThread::run() {
  for (;;) {
    std::unique_ptr<RowBatch> b;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      b = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    try {
      writeBatch(*b);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu_);
      error_ = std::current_exception();
      busy_ = false;
      queue_.clear();
      cv_.notify_all();
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
    free_.push_back(std::move(b));
    cv_.notify_all();
  }
}

}  // namespace rudp
