// One pipeline stage on a thread of its own: batches are handled in the
// order they were queued, handed over whole and recycled, so steady state
// allocates nothing; the queue is bounded, so memory does not grow with the
// capture. An error in the handler stops the stage and reaches the caller at
// its next write() or flush(). Ingest runs the flow stage (connections and
// their analysis) and the SQLite writer this way.
#pragma once
#include <pthread.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace rudp {

// Batch needs clear(), called before take() hands a recycled batch out again.
template <class Batch>
class BatchWorker {
 public:
  using Handler = std::function<void(Batch&)>;

  // `threaded` false: write() runs the handler inline (no thread). The name
  // (at most 15 characters) is what perf and hotspot show for the thread.
  BatchWorker(std::string threadName, Handler handler, bool threaded, size_t maxQueued = 4)
      : handler_(std::move(handler)), max_queued_(maxQueued) {
    if (threaded)
      thread_ = std::thread([this, name = std::move(threadName)] {
        pthread_setname_np(pthread_self(), name.c_str());
        run();
      });
  }
  // Stops the thread; batches not yet handled are dropped.
  ~BatchWorker() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  BatchWorker(const BatchWorker&) = delete;
  BatchWorker& operator=(const BatchWorker&) = delete;

  // A batch to fill; give it back with write().
  std::unique_ptr<Batch> take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return std::make_unique<Batch>();
    auto b = std::move(free_.front());
    free_.pop_front();
    b->clear();
    return b;
  }

  // Queues the batch (blocks while the queue is full). Rethrows the
  // handler's error on the caller's thread.
  void write(std::unique_ptr<Batch> b) {
    if (!thread_.joinable()) {
      handler_(*b);
      std::lock_guard<std::mutex> lock(mu_);
      free_.push_back(std::move(b));
      return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return queue_.size() < max_queued_ || error_; });
    rethrow();
    queue_.push_back(std::move(b));
    cv_.notify_all();
  }

  // Waits until everything queued is handled; rethrows the handler's error.
  void flush() {
    if (!thread_.joinable()) return;
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return (queue_.empty() && !busy_) || error_; });
    rethrow();
  }

 private:
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

  void run() {
    for (;;) {
      std::unique_ptr<Batch> b;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        b = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      try {
        handler_(*b);
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

  const Handler handler_;
  const size_t max_queued_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Batch>> queue_, free_;
  bool busy_ = false, stop_ = false;
  std::exception_ptr error_;
};

}  // namespace rudp
