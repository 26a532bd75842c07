#include "pcap_writer.hpp"

#include <pcap/pcap.h>

#include <stdexcept>

namespace grudp_sim {

PcapWriter::PcapWriter(const std::string& path, LinkType link, bool nsec, int64_t epoch_s)
    : nsec_(nsec), epoch_s_(epoch_s) {
  const int dlt = link == LinkType::Ethernet ? DLT_EN10MB : DLT_RAW;
  pcap_ = pcap_open_dead_with_tstamp_precision(
      dlt, 65535, nsec ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO);
  if (!pcap_) throw std::runtime_error("pcap_open_dead failed");
  dumper_ = pcap_dump_open(pcap_, path.c_str());
  if (!dumper_) {
    std::string err = pcap_geterr(pcap_);
    pcap_close(pcap_);
    pcap_ = nullptr;
    throw std::runtime_error("cannot write " + path + ": " + err);
  }
}

PcapWriter::~PcapWriter() { close(); }

void PcapWriter::close() {
  if (dumper_) pcap_dump_close(dumper_);
  if (pcap_) pcap_close(pcap_);
  dumper_ = nullptr;
  pcap_ = nullptr;
}

uint64_t PcapWriter::write(int64_t t_ns, const uint8_t* frame, size_t len) {
  pcap_pkthdr h{};
  const int64_t sec = t_ns / 1000000000;
  const int64_t frac = t_ns % 1000000000;
  h.ts.tv_sec = static_cast<time_t>(epoch_s_ + sec);
  // With a nanosecond dead handle, pcap_dump stores tv_usec as nanoseconds.
  h.ts.tv_usec = static_cast<suseconds_t>(nsec_ ? frac : frac / 1000);
  h.caplen = static_cast<bpf_u_int32>(len);
  h.len = static_cast<bpf_u_int32>(len);
  pcap_dump(reinterpret_cast<u_char*>(dumper_), &h, frame);
  return ++frames_;
}

}  // namespace grudp_sim
