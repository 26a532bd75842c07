#include "reactor.hpp"

#include <signal.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "clock.hpp"
#include "udp_socket.hpp"

namespace grudp_ep {

Reactor::Reactor() {
  epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
  if (epoll_ < 0) throw SocketError(std::string("epoll_create1: ") + std::strerror(errno));
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  signal_fd_ = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signal_fd_ < 0) throw SocketError(std::string("signalfd: ") + std::strerror(errno));
  add(signal_fd_, kSignalKey);
}

Reactor::~Reactor() {
  if (signal_fd_ >= 0) ::close(signal_fd_);
  if (epoll_ >= 0) ::close(epoll_);
}

void Reactor::add(int fd, uint32_t key) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u32 = key;
  if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev) != 0)
    throw SocketError(std::string("epoll_ctl: ") + std::strerror(errno));
}

void Reactor::wait(int64_t deadline_ns, const std::function<void(uint32_t)>& on_readable) {
  constexpr int kEvents = 256;
  epoll_event events[kEvents];
  // At most 100 ms, so exit conditions are looked at regularly.
  const int64_t wait_ns = std::clamp<int64_t>(deadline_ns - mono_ns(), 0, 100'000'000);
  timespec ts{time_t(wait_ns / 1000000000), long(wait_ns % 1000000000)};
  const int n = ::epoll_pwait2(epoll_, events, kEvents, &ts, nullptr);
  for (int i = 0; i < n; ++i) {
    if (events[i].data.u32 != kSignalKey) {
      on_readable(events[i].data.u32);
      continue;
    }
    signalfd_siginfo info;
    while (::read(signal_fd_, &info, sizeof info) == ssize_t(sizeof info)) ++signals_;
  }
}

}  // namespace grudp_ep
