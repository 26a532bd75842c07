// Streams frames into a pcap file through real libpcap (pcap_open_dead +
// pcap_dump), so the output is exactly what capture tools write.
#pragma once

#include <cstdint>
#include <string>

#include "config.hpp"

struct pcap;
struct pcap_dumper;

namespace grudp_sim {

class PcapWriter {
 public:
  PcapWriter(const std::string& path, LinkType link, bool nsec, int64_t epoch_s);
  ~PcapWriter();
  PcapWriter(const PcapWriter&) = delete;
  PcapWriter& operator=(const PcapWriter&) = delete;

  // `t_ns` is simulation time; the pcap timestamp is epoch_s + t_ns.
  // Returns the 1-based frame number.
  uint64_t write(int64_t t_ns, const uint8_t* frame, size_t len);
  uint64_t frames() const { return frames_; }
  void close();

 private:
  pcap* pcap_ = nullptr;
  pcap_dumper* dumper_ = nullptr;
  bool nsec_;
  int64_t epoch_s_;
  uint64_t frames_ = 0;
};

}  // namespace grudp_sim
