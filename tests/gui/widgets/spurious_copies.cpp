#include "spurious_copies.h"

#include <pcap/pcap.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <optional>

#include "pcap_writer.hpp"
#include "wire.hpp"

namespace rudp::test {

namespace {
struct Frame {
  int64_t t_ns = 0;
  std::vector<uint8_t> bytes;
};

bool isClientReliableData(const grudp_sim::SimConfig& cfg, const Frame& f, grudp_sim::Header& h) {
  grudp_sim::Addr src, dst;
  const uint8_t* payload = nullptr;
  size_t len = 0;
  if (!grudp_sim::find_udp_payload(cfg.link, f.bytes.data(), f.bytes.size(), src, dst, payload, len))
    return false;
  return src.port != cfg.server_port && grudp_sim::parse_datagram(payload, len, h) &&
         h.type == grudp_sim::kData && (h.flags & grudp_sim::kReliable);
}

// The same datagram with its ts moved on by the time since the original.
std::vector<uint8_t> copyAt(const grudp_sim::SimConfig& cfg, const Frame& original, int64_t t_ns) {
  grudp_sim::Addr src, dst;
  const uint8_t* payload = nullptr;
  size_t len = 0;
  grudp_sim::Header h;
  REQUIRE(grudp_sim::find_udp_payload(cfg.link, original.bytes.data(), original.bytes.size(), src, dst,
                                      payload, len));
  REQUIRE(grudp_sim::parse_datagram(payload, len, h));
  std::vector<uint8_t> dgram(payload, payload + len);
  h.ts += static_cast<uint32_t>((t_ns - original.t_ns) / 1'000'000);
  grudp_sim::encode_header(h, dgram.data());
  std::vector<uint8_t> frame(grudp_sim::kMaxFrame);
  frame.resize(grudp_sim::build_frame(cfg.link, src, dst, 0x5151, dgram.data(), dgram.size(), frame.data()));
  return frame;
}
}  // namespace

std::vector<InsertedCopy> insertSpuriousCopies(const std::string& in, const std::string& out,
                                               const grudp_sim::SimConfig& config,
                                               const std::vector<int64_t>& atNs, double ackedAfterMs) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* reader = pcap_open_offline_with_tstamp_precision(in.c_str(), PCAP_TSTAMP_PRECISION_NANO, err);
  REQUIRE(reader != nullptr);
  grudp_sim::PcapWriter writer(out, config.link, true, config.epoch_s);
  std::vector<InsertedCopy> inserted;
  std::vector<Frame> reliable;  // the client's reliable DATA so far
  size_t next = 0;
  pcap_pkthdr* hdr = nullptr;
  const u_char* data = nullptr;
  while (pcap_next_ex(reader, &hdr, &data) == 1) {
    Frame f{(static_cast<int64_t>(hdr->ts.tv_sec) - config.epoch_s) * 1'000'000'000 + hdr->ts.tv_usec,
            std::vector<uint8_t>(data, data + hdr->caplen)};
    while (next < atNs.size() && f.t_ns >= atNs[next]) {
      const int64_t at = atNs[next++];
      const int64_t latest = at - static_cast<int64_t>(ackedAfterMs * 1e6);
      auto it =
          std::find_if(reliable.rbegin(), reliable.rend(), [&](const Frame& r) { return r.t_ns <= latest; });
      REQUIRE(it != reliable.rend());
      const auto copy = copyAt(config, *it, at);
      grudp_sim::Header h;
      REQUIRE(isClientReliableData(config, *it, h));
      inserted.push_back({at, writer.write(at, copy.data(), copy.size()), h.seq});
    }
    grudp_sim::Header h;
    if (isClientReliableData(config, f, h)) reliable.push_back(f);
    writer.write(f.t_ns, f.bytes.data(), f.bytes.size());
  }
  pcap_close(reader);
  writer.close();
  REQUIRE(inserted.size() == atNs.size());
  return inserted;
}

}  // namespace rudp::test
