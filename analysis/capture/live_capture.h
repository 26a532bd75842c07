// Live capture through libpcap: a CaptureReader over an interface that writes
// every packet to a pcapng file as it arrives, so the analysis pipeline reads
// a live interface exactly as it reads a file, and the file it leaves behind
// analyses to the same database.
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "capture/capture_reader.h"
#include "capture/pcapng_writer.h"

struct pcap;

namespace rudp {

struct LiveOptions {
  std::string interface;              // a name pcap_findalldevs lists ("lo", "any", ...)
  std::string filter = "udp or tcp";  // BPF capture filter; empty: everything
  int snaplen = 262144;               // bytes kept per packet (Wireshark's default)
  bool promiscuous = true;
  int buffer_mb = 32;                       // kernel buffer: bursts above the analysis rate wait here
  std::string output;                       // the pcapng file written as packets arrive
  double duration_s = 0;                    // stop after this long; 0: until stopped
  const std::atomic<bool>* stop = nullptr;  // set from any thread (or a signal handler)
};

// What the kernel and the interface report (pcap_stats), and what was kept.
struct LiveCounters {
  uint64_t packets = 0;          // written to the file and analysed
  uint64_t bytes = 0;            // file size so far
  uint64_t kernel_drops = 0;     // dropped because the buffer was full
  uint64_t interface_drops = 0;  // dropped by the interface or its driver
};

class LiveCapture final : public CaptureReader {
 public:
  // Opens and starts the capture. Throws CaptureError with one line: a bad
  // filter (checked before anything starts), a missing interface, no
  // permission (and how to get it), a file that cannot be created.
  explicit LiveCapture(const LiveOptions& options);
  ~LiveCapture() override;

  bool next(RawPacket& out) override;
  bool paused() const override { return paused_; }
  void finish() override;

  int linkType() const override { return link_type_; }
  std::string linkTypeName() const override;
  std::string format() const override { return "pcapng"; }
  uint64_t fileSize() const override { return writer_->bytesWritten(); }
  uint64_t bytesRead() const override { return writer_->bytesWritten(); }
  bool truncated() const override { return false; }
  std::string warning() const override { return warning_; }

  // Call on the thread that calls next(). Final after finish().
  LiveCounters counters();
  const LiveOptions& options() const { return options_; }

 private:
  void activate();
  void applyFilter();
  bool stopRequested() const;
  bool pause();
  bool waitForPackets();
  void readStats();

  LiveOptions options_;
  pcap* p_ = nullptr;
  std::unique_ptr<PcapngWriter> writer_;
  int link_type_ = 0;
  bool nanoseconds_ = true;
  bool paused_ = false;
  bool finished_ = false;
  uint64_t frame_ = 0;
  LiveCounters counters_;
  std::string warning_;
  std::chrono::steady_clock::time_point started_, published_;
};

}  // namespace rudp
