// Where a live capture's packets come from: libpcap in this process
// (pcap_live_source.h), when the process may capture itself, or dumpcap
// through a pipe (dumpcap_source.h), when it may not, so that capture
// privileges stay with a program that runs no Lua (core/privileges.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/packet.h"

namespace rudp {

struct LiveOptions;

// What the kernel and the interface report. From dumpcap, the counts are
// known only once it has stopped: `counted` is false before.
struct DropCounts {
  uint64_t kernel = 0;     // dropped because the buffer was full
  uint64_t interface = 0;  // dropped by the interface or its driver
  bool counted = true;
};

class LiveSource {
 public:
  enum class Read { Packet, Idle, Ended };

  virtual ~LiveSource() = default;
  // Packet: `out` holds one (its data valid until the next call); Idle: none
  // came within `wait_ms`; Ended: the source stopped by itself (warning()).
  virtual Read next(RawPacket& out, int wait_ms) = 0;
  virtual int linkType() const = 0;
  virtual std::string linkTypeName() const = 0;
  virtual DropCounts drops() = 0;
  // Stops capturing; drops() is final after it.
  virtual void stop() = 0;
  // An activation warning, or why the source ended.
  virtual std::string warning() const = 0;
};

// libpcap when this process holds CAP_NET_RAW, dumpcap otherwise. Throws
// CaptureError with one line (what to do about it).
std::unique_ptr<LiveSource> openLiveSource(const LiveOptions& options);

}  // namespace rudp
