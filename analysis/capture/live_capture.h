// Live capture: a CaptureReader over an interface that writes every packet
// to a pcapng file as it arrives, so the analysis pipeline reads a live
// interface exactly as it reads a file, and the file it leaves behind
// analyses to the same database. The packets come from libpcap in this
// process when it may capture (root), from dumpcap otherwise
// (capture/live_source.h).
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "capture/capture_reader.h"
#include "capture/live_source.h"
#include "capture/pcapng_writer.h"

namespace rudp {

struct LiveOptions {
  std::string interface;              // a name pcap_findalldevs lists ("lo", "any", ...)
  std::string filter = "udp or tcp";  // BPF capture filter; empty: everything
  int snaplen = 262144;               // bytes kept per packet (Wireshark's default)
  bool promiscuous = true;
  int buffer_mb = 32;     // kernel buffer: bursts above the analysis rate wait here
  std::string output;     // the pcapng file written as packets arrive
  double duration_s = 0;  // stop after this long; 0: until stopped
  // A ring buffer: when the file reaches ring_file_bytes the capture goes on
  // in a new file, and only the newest ring_files are kept. The files are
  // named as Wireshark names its ring: OUTPUT's stem + _NNNNN_YYYYmmddHHMMSS
  // + its extension. 0: one file.
  unsigned ring_files = 0;
  uint64_t ring_file_bytes = 0;
  const std::atomic<bool>* stop = nullptr;  // set from any thread (or a signal handler)
};

// How long a read waits for packets before the capture looks at its clock.
constexpr int kLiveReadTimeoutMs = 50;

// What the kernel and the interface report (pcap_stats, or dumpcap when it
// stops), and what was kept.
struct LiveCounters {
  uint64_t packets = 0;          // written to the file and analysed
  uint64_t bytes = 0;            // file size so far
  uint64_t kernel_drops = 0;     // dropped because the buffer was full
  uint64_t interface_drops = 0;  // dropped by the interface or its driver
  bool drops_counted = true;     // false while dumpcap captures: it counts when it stops
};

class LiveCapture final : public CaptureReader {
 public:
  // Opens and starts the capture. Throws CaptureError with one line: a bad
  // filter (checked before anything starts), a missing interface, no
  // permission (and how to get it: dumpcap and the wireshark group), a file
  // that cannot be created.
  explicit LiveCapture(const LiveOptions& options);
  ~LiveCapture() override;

  // False also when a ring file is full (fileFull()): the file's stream ends
  // there, and rotate() starts the next one.
  bool next(RawPacket& out) override;
  bool paused() const override { return paused_; }
  // Completes the current file; stops capturing unless the file is full.
  void finish() override;

  bool fileFull() const { return file_full_; }
  // After finish() of a full ring file: starts the next file, frames
  // numbered from 1 again. Returns the file the ring dropped ("" if none),
  // already deleted.
  std::string rotate();
  const std::string& currentFile() const { return writer_->path(); }

  int linkType() const override { return link_type_; }
  std::string linkTypeName() const override { return link_type_name_; }
  std::string format() const override { return "pcapng"; }
  uint64_t fileSize() const override { return writer_->bytesWritten(); }
  uint64_t bytesRead() const override { return writer_->bytesWritten(); }
  bool truncated() const override { return false; }
  std::string warning() const override { return source_->warning(); }

  // Call on the thread that calls next(). Final after finish().
  // `packets` counts the whole capture, `bytes` the current file.
  LiveCounters counters();
  const LiveOptions& options() const { return options_; }

 private:
  bool stopRequested() const;
  bool pause();
  void readStats();
  void openFile();

  LiveOptions options_;
  std::unique_ptr<LiveSource> source_;
  std::unique_ptr<PcapngWriter> writer_;
  int link_type_ = 0;
  std::string link_type_name_;
  bool paused_ = false;
  bool finished_ = false;
  bool file_full_ = false;
  unsigned file_index_ = 1;
  std::vector<std::string> kept_;  // ring files, oldest first
  uint64_t frame_ = 0;
  LiveCounters counters_;
  std::chrono::steady_clock::time_point started_, published_;
};

}  // namespace rudp
