// rudpscope-cli capture: capture live, analyse as packets arrive, and print
// what `analyze` prints of the written file once the capture stops.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <ctime>

#include "cli/commands.h"
#include "core/error.h"
#include "decode/capture_warnings.h"
#include "store/db_path.h"

namespace rudp::cli {

namespace {

std::atomic<bool> g_stop{false};

void requestStop(int) { g_stop.store(true); }

// SIGINT and SIGTERM stop the capture cleanly, once: a second one kills, in
// case completing the file and the database were to hang.
void stopOnSignals() {
  struct sigaction sa = {};
  sa.sa_handler = requestStop;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// capture-IFACE-YYYYmmdd-HHMMSS.pcapng in the current folder: kept for the bug tracker.
std::string defaultOutput(const std::string& iface) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  return "capture-" + iface + "-" + stamp + ".pcapng";
}

// dumpcap counts its drops when it stops.
std::string dropsText(const LiveCounters& c) {
  if (!c.drops_counted) return "drops counted at the end";
  return std::to_string(c.kernel_drops + c.interface_drops) + " dropped";
}

// The live line on stderr: redrawn in place on a terminal, one line a second
// otherwise (logs, tests).
class StatusLine {
 public:
  StatusLine(LiveCapture& capture, bool quiet)
      : capture_(capture), quiet_(quiet), tty_(::isatty(STDERR_FILENO)), last_(Clock::now()) {}

  void update(const Progress& p) {
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last_).count();
    if (quiet_ || dt < (tty_ ? 0.25 : 1.0)) return;
    const LiveCounters c = capture_.counters();
    const double rate = static_cast<double>(p.packets - packets_) / dt;
    std::fprintf(stderr,
                 "%scapturing on %s: %" PRIu64 " packets, %.0f packets/s, %s, %" PRIu64
                 " connections, %.1f MB%s",
                 tty_ ? "\r\033[K" : "", capture_.options().interface.c_str(), p.packets, rate,
                 dropsText(c).c_str(), p.connections, static_cast<double>(c.bytes) / 1e6, tty_ ? "" : "\n");
    last_ = now;
    packets_ = p.packets;
  }
  void clear() const {
    if (!quiet_ && tty_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  using Clock = std::chrono::steady_clock;
  LiveCapture& capture_;
  const bool quiet_, tty_;
  Clock::time_point last_;
  uint64_t packets_ = 0;
};

// --ring N:MB
void parseRing(const std::string& text, LiveOptions& live) {
  unsigned files = 0;
  double mb = 0;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%u:%lf%c", &files, &mb, &rest) != 2 || files < 2 || mb <= 0)
    throw Error("--ring takes N:MB with N >= 2 files and MB > 0 megabytes each, not '" + text + "'");
  live.ring_files = files;
  live.ring_file_bytes = static_cast<uint64_t>(mb * 1e6);
}

}  // namespace

int runCapture(CaptureArgs& args) {
  AnalyzeArgs& a = args.analysis;
  if (a.capture.empty()) a.capture = defaultOutput(args.live.interface);
  args.live.output = a.capture;
  args.live.promiscuous = !args.noPromiscuous;
  args.live.stop = &g_stop;
  if (!args.ring.empty()) {
    parseRing(args.ring, args.live);
    if (!a.db.empty())
      throw Error("--db cannot be used with --ring: each file gets its own database beside it");
  }

  LiveCapture capture(args.live);
  const std::string db = a.db.empty() && args.ring.empty() ? defaultDatabasePath(a.capture) : a.db;
  stopOnSignals();
  StatusLine status(capture, a.quiet);
  ProgressSink progress;
  progress.report = [&status](const Progress& p) { status.update(p); };
  IngestResult r = ingestLive(capture, db, a.dissectors, ingestOptions(a), progress);
  status.clear();
  printWarnings(splitLines(r.capture.warning));
  const LiveCounters c = capture.counters();
  const std::string drops = c.drops_counted ? std::to_string(c.kernel_drops) + " dropped by the kernel, " +
                                                  std::to_string(c.interface_drops) + " by the interface"
                                            : "drops unknown: dumpcap did not report them";
  std::fprintf(stderr, "rudpscope-cli: captured %" PRIu64 " packets%s to %s (%s)\n", c.packets,
               args.ring.empty() ? "" : ", the newest", r.capture.path.c_str(), drops.c_str());
  printSummary(r.db_path, a.json);
  return 0;
}

}  // namespace rudp::cli
