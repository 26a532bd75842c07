// Live packets from dumpcap, for a process without capture privileges, as
// Wireshark and tshark capture: dumpcap (installed with cap_net_raw and
// cap_net_admin for the wireshark group) writes pcapng to a pipe, this
// process reads it with PcapngCaptureReader. dumpcap runs no dissectors and
// no Lua, so the privileges never reach a script.
//
// dumpcap 4.0 writes its file header at once and flushes every packet to a
// pipe; it reports drops only when it stops (its last stderr line), and
// stop() asks it to stop with SIGINT, as Wireshark does. A process that is
// killed cannot ask: a watchdog shell does (see startWatchdog()).
#pragma once
#include <sys/types.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "capture/live_capture.h"
#include "capture/live_source.h"
#include "capture/pcapng_capture_reader.h"
#include "core/unique_fd.h"

namespace rudp {

class DumpcapSource final : public LiveSource {
 public:
  // Starts dumpcap and waits for its file header. Throws CaptureError with
  // one line: no dumpcap, not allowed to run it, no permission to capture, no
  // such interface, anything else dumpcap says.
  explicit DumpcapSource(const LiveOptions& options);
  ~DumpcapSource() override;

  Read next(RawPacket& out, int wait_ms) override;
  int linkType() const override { return reader_->linkType(); }
  std::string linkTypeName() const override { return reader_->linkTypeName(); }
  DropCounts drops() override { return drops_; }
  void stop() override;
  std::string warning() const override { return warning_; }

  // The arguments dumpcap gets (without its path).
  static std::vector<std::string> arguments(const LiveOptions& options);
  // dumpcap on PATH, as a real path; empty if none.
  static std::string find();

 private:
  void spawn(const std::string& dumpcap);
  void startWatchdog();
  void waitForHeader();
  static ssize_t readPipe(void* cookie, char* buf, size_t size);
  static int closePipe(void* cookie);
  bool buffered() const;
  bool waitForData(int wait_ms) const;
  std::string failure() const;
  std::string stderrText() const;
  void reap(bool interrupt);

  LiveOptions options_;
  pid_t pid_ = -1;
  pid_t watchdog_ = -1;
  UniqueFd watchdog_pipe_;  // its stdin: closes when this process ends
  UniqueFd stderr_;         // a memfd dumpcap writes its messages to
  std::unique_ptr<PcapngCaptureReader> reader_;
  int pipe_ = -1;           // dumpcap's stdout, owned by reader_'s stream once it reads it
  uint64_t delivered_ = 0;  // bytes stdio has taken from the pipe
  DropCounts drops_{0, 0, false};
  std::string warning_;
};

}  // namespace rudp
