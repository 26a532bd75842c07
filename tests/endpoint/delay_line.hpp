// Datagrams held back in the process before they reach the socket: the
// delay/jitter impairment and packets held for reordering. One per process;
// slots are recycled, so steady traffic allocates nothing.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "counters.hpp"

namespace grudp_ep {

class DelayLine {
 public:
  struct Handle {
    uint32_t slot = 0;
    uint32_t token = 0;
  };
  struct Target {
    int fd = -1;
    const sockaddr_in* dst = nullptr;  // null on a connected socket; must outlive the datagram
    ConnCounters* counters = nullptr;  // sent_wire / send_errors are counted when it leaves
  };

  Handle push(int64_t release_ns, const Target& to, const grudp_sim::Header& h, const uint8_t* data,
              size_t len);
  // Moves a pending datagram to `release_ns`, behind everything already due then.
  void reschedule(Handle h, int64_t release_ns);
  bool pending(Handle h) const;

  // Writes every datagram due at `now_ns` to its socket, in release order.
  void flush(int64_t now_ns);
  int64_t next_due_ns() const {
    return heap_.empty() ? std::numeric_limits<int64_t>::max() : heap_.front().t;
  }
  bool empty() const { return in_use_ == 0; }

 private:
  struct Slot {
    Target to;
    grudp_sim::Header header;
    uint32_t token = 0;
    bool used = false;
    uint16_t len = 0;
    uint8_t data[grudp_sim::kHeaderSize + 1024];
  };
  struct Entry {
    int64_t t;
    uint64_t order;
    uint32_t slot;
    uint32_t token;
    // std heap functions build a max-heap: "greater" puts the earliest first.
    bool operator<(const Entry& o) const { return t != o.t ? t > o.t : order > o.order; }
  };
  void schedule(uint32_t slot, int64_t t);

  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  std::vector<Entry> heap_;
  uint64_t order_ = 0;
  size_t in_use_ = 0;
};

// Writes one datagram now and counts it on `to.counters`.
void write_datagram(const DelayLine::Target& to, const grudp_sim::Header& h, const uint8_t* data, size_t len);

}  // namespace grudp_ep
