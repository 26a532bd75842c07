#include "capture/live_capture.h"

#include <pcap/pcap.h>
#include <poll.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "capture/capture_filter.h"
#include "core/error.h"

namespace rudp {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// How often a flowing capture pauses so that the pipeline publishes and the
// file is flushed: the GUI looks every 150 ms and wants at least five
// updates a second. The clock is read as packets come, and the kernel hands
// them over in 50 ms blocks, so publishes come 50-100 ms apart (at 100 ms
// they came 100-150 ms apart, and one look in three found nothing new).
constexpr auto kPublishEvery = std::chrono::milliseconds(50);
constexpr int kReadTimeoutMs = 50;

std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

std::string thisProgram() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, size_t(n)) : std::string("rudpscope-cli");
}

// One line for each way pcap_activate fails, saying what to do about it.
std::string activationError(int rc, const std::string& iface, const std::string& detail) {
  switch (rc) {
    case PCAP_ERROR_NO_SUCH_DEVICE:
      return "no interface " + inQuotes(iface) + " to capture on (rudpscope-cli interfaces lists them)";
    case PCAP_ERROR_PERM_DENIED:
      return "no permission to capture on " + inQuotes(iface) +
             ": run as root, or allow this program once with: sudo setcap cap_net_raw,cap_net_admin+eip " +
             thisProgram();
    case PCAP_ERROR_PROMISC_PERM_DENIED:
      return "no permission to put " + inQuotes(iface) + " in promiscuous mode: capture without it (-p)";
    case PCAP_ERROR_IFACE_NOT_UP: return "interface " + inQuotes(iface) + " is down";
    default: return "cannot capture on " + inQuotes(iface) + ": " + detail;
  }
}

}  // namespace

LiveCapture::LiveCapture(const LiveOptions& options) : options_(options) {
  // A bad filter is reported before anything needs permission or starts.
  if (std::string why = captureFilterError(options_.filter); !why.empty()) throw CaptureError(why);
  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  p_ = pcap_create(options_.interface.c_str(), errbuf);
  if (!p_) throw CaptureError("cannot capture on " + inQuotes(options_.interface) + ": " + errbuf);
  try {
    activate();
    applyFilter();
    openFile();
  } catch (...) {
    pcap_close(p_);
    throw;
  }
  started_ = published_ = Clock::now();
}

LiveCapture::~LiveCapture() {
  if (p_) pcap_close(p_);
}

void LiveCapture::activate() {
  pcap_set_snaplen(p_, options_.snaplen);
  pcap_set_promisc(p_, options_.promiscuous ? 1 : 0);
  pcap_set_buffer_size(p_, options_.buffer_mb * 1024 * 1024);
  pcap_set_timeout(p_, kReadTimeoutMs);
  nanoseconds_ = pcap_set_tstamp_precision(p_, PCAP_TSTAMP_PRECISION_NANO) == 0;
  const int rc = pcap_activate(p_);
  if (rc < 0) throw CaptureError(activationError(rc, options_.interface, pcap_geterr(p_)));
  if (rc > 0) warning_ = "capture on " + inQuotes(options_.interface) + ": " + pcap_geterr(p_);
  nanoseconds_ = pcap_get_tstamp_precision(p_) == PCAP_TSTAMP_PRECISION_NANO;
  link_type_ = pcap_datalink(p_);
  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  if (pcap_setnonblock(p_, 1, errbuf) != 0)
    throw CaptureError("cannot capture on " + inQuotes(options_.interface) + ": " + errbuf);
}

void LiveCapture::applyFilter() {
  if (options_.filter.empty()) return;
  bpf_program program;
  if (pcap_compile(p_, &program, options_.filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0)
    throw CaptureError("bad capture filter " + inQuotes(options_.filter) + " on " +
                       inQuotes(options_.interface) + ": " + pcap_geterr(p_));
  const int rc = pcap_setfilter(p_, &program);
  pcap_freecode(&program);
  if (rc != 0)
    throw CaptureError("cannot apply capture filter " + inQuotes(options_.filter) + ": " + pcap_geterr(p_));
}

// OUTPUT's stem + _NNNNN_YYYYmmddHHMMSS + its extension, as Wireshark names ring files.
static std::string ringFileName(const std::string& output, unsigned index) {
  const fs::path path(output);
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
  char number[16];
  std::snprintf(number, sizeof number, "_%05u_", index);
  return (path.parent_path() / (path.stem().string() + number + stamp + path.extension().string())).string();
}

void LiveCapture::openFile() {
  const bool ring = options_.ring_files > 0;
  const std::string path = ring ? ringFileName(options_.output, file_index_) : options_.output;
  writer_ = std::make_unique<PcapngWriter>(path, link_type_, PcapngWriter::Mode::Live);
  if (ring) kept_.push_back(path);
}

std::string LiveCapture::rotate() {
  file_full_ = false;
  finished_ = false;
  frame_ = 0;
  ++file_index_;
  openFile();
  if (kept_.size() <= options_.ring_files) return {};
  std::string dropped = kept_.front();
  kept_.erase(kept_.begin());
  std::remove(dropped.c_str());
  return dropped;
}

std::string LiveCapture::linkTypeName() const {
  const char* name = pcap_datalink_val_to_name(link_type_);
  return name ? name : "DLT " + std::to_string(link_type_);
}

bool LiveCapture::stopRequested() const {
  if (options_.stop && options_.stop->load(std::memory_order_relaxed)) return true;
  return options_.duration_s > 0 &&
         std::chrono::duration<double>(Clock::now() - started_).count() >= options_.duration_s;
}

// Ends the current batch so the pipeline publishes it, and hands the file's
// new packets to the kernel, so that a killed capture keeps them. Returns
// false, as next() does when it pauses.
bool LiveCapture::pause() {
  published_ = Clock::now();
  writer_->flush();
  paused_ = true;
  return false;
}

bool LiveCapture::next(RawPacket& out) {
  paused_ = false;
  if (finished_ || stopRequested()) return false;
  if (options_.ring_files > 0 && writer_->bytesWritten() >= options_.ring_file_bytes) {
    file_full_ = true;
    return false;
  }
  if (Clock::now() - published_ >= kPublishEvery) return pause();
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  int rc = pcap_next_ex(p_, &header, &data);
  if (rc == 0 && waitForPackets()) rc = pcap_next_ex(p_, &header, &data);
  if (rc == 0) return pause();
  if (rc != 1) {  // the interface went away, or another error: keep what came before
    warning_ = "capture on " + inQuotes(options_.interface) + " stopped: " + pcap_geterr(p_);
    return false;
  }
  const int64_t fraction = nanoseconds_ ? header->ts.tv_usec : int64_t(header->ts.tv_usec) * 1000;
  out.frame = ++frame_;
  out.ts_ns = int64_t(header->ts.tv_sec) * 1'000'000'000 + fraction;
  out.caplen = header->caplen;
  out.origlen = header->len;
  out.data = data;
  out.file_offset = writer_->write(out);
  ++counters_.packets;
  return true;
}

// The handle is non-blocking: with TPACKET_V3 a blocking read waits forever
// on an idle interface (an empty kernel block is never handed over), and the
// capture must stay responsive to Stop. True when packets may be ready.
bool LiveCapture::waitForPackets() {
  pollfd fd{pcap_get_selectable_fd(p_), POLLIN, 0};
  return ::poll(&fd, 1, kReadTimeoutMs) != 0;
}

void LiveCapture::readStats() {
  pcap_stat st{};
  if (pcap_stats(p_, &st) != 0) return;
  counters_.kernel_drops = st.ps_drop;
  counters_.interface_drops = st.ps_ifdrop;
}

LiveCounters LiveCapture::counters() {
  if (!finished_) readStats();
  counters_.bytes = writer_->bytesWritten();
  return counters_;
}

void LiveCapture::finish() {
  if (finished_) return;
  readStats();
  finished_ = true;
  if (!file_full_) {
    pcap_close(p_);
    p_ = nullptr;
  }
  writer_->finish();
}

}  // namespace rudp
