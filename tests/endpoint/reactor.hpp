// The single wait of an endpoint process: epoll over its sockets plus a
// signalfd for SIGINT/SIGTERM, with a nanosecond deadline.
#pragma once

#include <cstdint>
#include <functional>

namespace grudp_ep {

class Reactor {
 public:
  Reactor();  // blocks SIGINT and SIGTERM for the process and reads them from a signalfd
  ~Reactor();
  Reactor(const Reactor&) = delete;
  Reactor& operator=(const Reactor&) = delete;

  void add(int fd, uint32_t key);
  // Waits until a socket is readable, a signal arrives or `deadline_ns`
  // (monotonic) passes; calls `on_readable(key)` for each readable socket.
  void wait(int64_t deadline_ns, const std::function<void(uint32_t key)>& on_readable);
  int signals() const { return signals_; }

 private:
  static constexpr uint32_t kSignalKey = 0xFFFFFFFFu;
  int epoll_ = -1;
  int signal_fd_ = -1;
  int signals_ = 0;
};

}  // namespace grudp_ep
