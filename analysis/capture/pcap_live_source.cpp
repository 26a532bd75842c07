#include "capture/pcap_live_source.h"

#include <pcap/pcap.h>
#include <poll.h>

#include "capture/capture_errors.h"
#include "capture/live_capture.h"
#include "core/error.h"

namespace rudp {

namespace {

std::string inQuotes(const std::string& s) { return "'" + s + "'"; }

// One line for each way pcap_activate fails, saying what to do about it.
std::string activationError(int rc, const std::string& iface, const std::string& detail) {
  switch (rc) {
    case PCAP_ERROR_NO_SUCH_DEVICE: return noInterfaceError(iface);
    case PCAP_ERROR_PERM_DENIED: return noPermissionError(iface);
    case PCAP_ERROR_PROMISC_PERM_DENIED:
      return "no permission to put " + inQuotes(iface) + " in promiscuous mode: capture without it (-p)";
    case PCAP_ERROR_IFACE_NOT_UP: return "interface " + inQuotes(iface) + " is down";
    default: return captureFailedError(iface, detail);
  }
}

}  // namespace

PcapLiveSource::PcapLiveSource(const LiveOptions& options) : interface_(options.interface) {
  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  p_ = pcap_create(interface_.c_str(), errbuf);
  if (!p_) throw CaptureError(captureFailedError(interface_, errbuf));
  try {
    activate(options);
    applyFilter(options);
  } catch (...) {
    pcap_close(p_);
    throw;
  }
}

PcapLiveSource::~PcapLiveSource() {
  if (p_) pcap_close(p_);
}

void PcapLiveSource::activate(const LiveOptions& options) {
  pcap_set_snaplen(p_, options.snaplen);
  pcap_set_promisc(p_, options.promiscuous ? 1 : 0);
  pcap_set_buffer_size(p_, options.buffer_mb * 1024 * 1024);
  pcap_set_timeout(p_, kLiveReadTimeoutMs);
  nanoseconds_ = pcap_set_tstamp_precision(p_, PCAP_TSTAMP_PRECISION_NANO) == 0;
  const int rc = pcap_activate(p_);
  if (rc < 0) throw CaptureError(activationError(rc, interface_, pcap_geterr(p_)));
  if (rc > 0) warning_ = "capture on " + inQuotes(interface_) + ": " + pcap_geterr(p_);
  nanoseconds_ = pcap_get_tstamp_precision(p_) == PCAP_TSTAMP_PRECISION_NANO;
  link_type_ = pcap_datalink(p_);
  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  if (pcap_setnonblock(p_, 1, errbuf) != 0) throw CaptureError(captureFailedError(interface_, errbuf));
}

void PcapLiveSource::applyFilter(const LiveOptions& options) {
  if (options.filter.empty()) return;
  bpf_program program;
  if (pcap_compile(p_, &program, options.filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0)
    throw CaptureError(badFilterError(options.filter, interface_, pcap_geterr(p_)));
  const int rc = pcap_setfilter(p_, &program);
  pcap_freecode(&program);
  if (rc != 0)
    throw CaptureError("cannot apply capture filter " + inQuotes(options.filter) + ": " + pcap_geterr(p_));
}

std::string PcapLiveSource::linkTypeName() const {
  const char* name = pcap_datalink_val_to_name(link_type_);
  return name ? name : "DLT " + std::to_string(link_type_);
}

LiveSource::Read PcapLiveSource::next(RawPacket& out, int wait_ms) {
  pcap_pkthdr* header = nullptr;
  const u_char* data = nullptr;
  int rc = pcap_next_ex(p_, &header, &data);
  if (rc == 0 && waitForPackets(wait_ms)) rc = pcap_next_ex(p_, &header, &data);
  if (rc == 0) return Read::Idle;
  if (rc != 1) {  // the interface went away, or another error: keep what came before
    warning_ = "capture on " + inQuotes(interface_) + " stopped: " + pcap_geterr(p_);
    return Read::Ended;
  }
  const int64_t fraction = nanoseconds_ ? header->ts.tv_usec : int64_t(header->ts.tv_usec) * 1000;
  out.ts_ns = int64_t(header->ts.tv_sec) * 1'000'000'000 + fraction;
  out.caplen = header->caplen;
  out.origlen = header->len;
  out.data = data;
  return Read::Packet;
}

// The handle is non-blocking: with TPACKET_V3 a blocking read waits forever
// on an idle interface (an empty kernel block is never handed over), and the
// capture must stay responsive to Stop. True when packets may be ready.
bool PcapLiveSource::waitForPackets(int wait_ms) {
  pollfd fd{pcap_get_selectable_fd(p_), POLLIN, 0};
  return ::poll(&fd, 1, wait_ms) != 0;
}

DropCounts PcapLiveSource::drops() {
  pcap_stat st{};
  if (p_ && pcap_stats(p_, &st) == 0) drops_ = {st.ps_drop, st.ps_ifdrop, true};
  return drops_;
}

void PcapLiveSource::stop() {
  if (!p_) return;
  drops();
  pcap_close(p_);
  p_ = nullptr;
}

}  // namespace rudp
