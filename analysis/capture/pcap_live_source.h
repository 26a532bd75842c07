// Live packets from libpcap in this process: for a process that holds
// CAP_NET_RAW (root). Non-blocking, so that a capture stays responsive to
// Stop on an idle interface.
#pragma once
#include "capture/live_source.h"

struct pcap;

namespace rudp {

class PcapLiveSource final : public LiveSource {
 public:
  // Throws CaptureError: a missing interface, no permission, a filter
  // libpcap refuses on this interface.
  explicit PcapLiveSource(const LiveOptions& options);
  ~PcapLiveSource() override;

  Read next(RawPacket& out, int wait_ms) override;
  int linkType() const override { return link_type_; }
  std::string linkTypeName() const override;
  DropCounts drops() override;
  void stop() override;
  std::string warning() const override { return warning_; }

 private:
  void activate(const LiveOptions& options);
  void applyFilter(const LiveOptions& options);
  bool waitForPackets(int wait_ms);

  pcap* p_ = nullptr;
  std::string interface_;
  int link_type_ = 0;
  bool nanoseconds_ = true;
  DropCounts drops_;
  std::string warning_;
};

}  // namespace rudp
