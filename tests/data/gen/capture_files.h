// Builds whole capture files byte by byte for tests that need what libpcap
// will not write: pcapng with several interfaces of different link types,
// snap lengths and timestamp resolutions, simple packet blocks, statistics
// and custom blocks between packets; pcap of any link type; and the link
// headers of NFLOG, PKTAP and IP over InfiniBand frames.
#pragma once
#include <cstring>
#include <fstream>
#include <string>

#include "frame_builder.h"

namespace rudp::testgen {

inline void putLe16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
inline void putLe32(Bytes& b, uint32_t v) {
  putLe16(b, uint16_t(v));
  putLe16(b, uint16_t(v >> 16));
}
inline void putLe64(Bytes& b, uint64_t v) {
  putLe32(b, uint32_t(v));
  putLe32(b, uint32_t(v >> 32));
}
inline void pad4(Bytes& b) {
  while (b.size() % 4) b.push_back(0);
}

inline void writeFile(const std::string& path, const Bytes& b) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// A little-endian pcapng file, block by block.
class PcapngBuilder {
 public:
  PcapngBuilder() { section(); }

  // `tsresol`: if_tsresol's byte (6 = microseconds, 9 = ns, 0x80|k = 2^-k).
  PcapngBuilder& interface(uint16_t linkType, uint32_t snaplen, uint8_t tsresol = 6, int64_t tsoffset = 0) {
    Bytes body;
    putLe16(body, linkType);
    putLe16(body, 0);
    putLe32(body, snaplen);
    option(body, 9, Bytes{tsresol});
    if (tsoffset) {
      Bytes v;
      putLe64(v, uint64_t(tsoffset));
      option(body, 14, v);
    }
    option(body, 0, {});
    return block(1, body);
  }
  PcapngBuilder& packet(uint32_t iface, uint64_t ticks, const Bytes& frame, uint32_t origlen = 0) {
    Bytes body;
    putLe32(body, iface);
    putLe32(body, uint32_t(ticks >> 32));
    putLe32(body, uint32_t(ticks));
    putLe32(body, uint32_t(frame.size()));
    putLe32(body, origlen ? origlen : uint32_t(frame.size()));
    body.insert(body.end(), frame.begin(), frame.end());
    pad4(body);
    return block(6, body);
  }
  PcapngBuilder& simplePacket(const Bytes& frame) {
    Bytes body;
    putLe32(body, uint32_t(frame.size()));
    body.insert(body.end(), frame.begin(), frame.end());
    pad4(body);
    return block(3, body);
  }
  // An interface statistics block (type 5): not a frame.
  PcapngBuilder& statistics() {
    Bytes isb;
    putLe32(isb, 0);
    putLe64(isb, 0);
    return block(5, isb);
  }
  // A custom block (0x40000BAD): Wireshark 4.0 counts it as a frame.
  PcapngBuilder& custom() {
    Bytes custom;
    putLe32(custom, 32473);  // private enterprise number of the examples
    custom.insert(custom.end(), {'r', 'u', 'd', 'p'});
    return block(0x40000BAD, custom);
  }
  // A new section: a new list of interfaces.
  PcapngBuilder& section() {
    Bytes body;
    putLe32(body, 0x1A2B3C4D);
    putLe16(body, 1);
    putLe16(body, 0);
    putLe64(body, ~uint64_t(0));
    return block(0x0A0D0D0A, body);
  }
  const Bytes& bytes() const { return out_; }

 private:
  static void option(Bytes& body, uint16_t code, const Bytes& value) {
    putLe16(body, code);
    putLe16(body, uint16_t(value.size()));
    body.insert(body.end(), value.begin(), value.end());
    pad4(body);
  }
  PcapngBuilder& block(uint32_t type, const Bytes& body) {
    const auto total = uint32_t(body.size() + 12);
    putLe32(out_, type);
    putLe32(out_, total);
    out_.insert(out_.end(), body.begin(), body.end());
    putLe32(out_, total);
    return *this;
  }
  Bytes out_;
};

// A little-endian microsecond pcap of one link type.
class PcapBuilder {
 public:
  explicit PcapBuilder(uint32_t linkType, uint32_t snaplen = 262144) {
    // Room for the header first: growing from empty inside these inlined
    // pushes trips GCC 12's -Wstringop-overread (a false positive).
    out_.reserve(4096);
    putLe32(out_, 0xa1b2c3d4);
    putLe16(out_, 2);
    putLe16(out_, 4);
    putLe32(out_, 0);
    putLe32(out_, 0);
    putLe32(out_, snaplen);
    putLe32(out_, linkType);
  }
  // `origlen`: the length on the wire, 0: as captured.
  PcapBuilder& packet(int64_t tsUs, const Bytes& frame, uint32_t origlen = 0) {
    putLe32(out_, uint32_t(tsUs / 1'000'000));
    putLe32(out_, uint32_t(tsUs % 1'000'000));
    putLe32(out_, uint32_t(frame.size()));
    putLe32(out_, origlen ? origlen : uint32_t(frame.size()));
    out_.insert(out_.end(), frame.begin(), frame.end());
    return *this;
  }
  // Where record `index` (0-based) starts.
  size_t recordOffset(size_t index) const { return offsets_.at(index); }
  Bytes& bytes() { return out_; }
  PcapBuilder& mark() {
    offsets_.push_back(out_.size());
    return *this;
  }

 private:
  Bytes out_;
  std::vector<size_t> offsets_;
};

// NFLOG (LINKTYPE 239) as Linux writes it: header (AF_INET, version 0,
// resource id 1 big-endian), a prefix TLV, then the payload TLV; TLV lengths
// and types little-endian.
inline Bytes nflog(const Bytes& ip) {
  Bytes b{2, 0, 0, 1};
  const Bytes prefix = text("game");
  putLe16(b, uint16_t(4 + prefix.size() + 1));
  putLe16(b, 10);  // NFULA_PREFIX
  b.insert(b.end(), prefix.begin(), prefix.end());
  b.push_back(0);
  pad4(b);
  putLe16(b, uint16_t(4 + ip.size()));
  putLe16(b, 9);  // NFULA_PAYLOAD
  b.insert(b.end(), ip.begin(), ip.end());
  pad4(b);
  return b;
}

// PKTAP (LINKTYPE 258) as macOS writes it: a 108-byte little-endian header
// naming the inner link type (Ethernet here) and the process, then the frame.
inline Bytes pktap(const Bytes& ethernetFrame) {
  Bytes b;
  putLe32(b, 108);  // pth_length
  putLe32(b, 1);    // pth_type_next: a packet
  putLe32(b, 1);    // pth_dlt: Ethernet
  Bytes name = text("en0");
  name.resize(24, 0);
  b.insert(b.end(), name.begin(), name.end());
  b.resize(108, 0);  // flags, family, pid, command, ...: zero
  b.insert(b.end(), ethernetFrame.begin(), ethernetFrame.end());
  return b;
}

// IP over InfiniBand (LINKTYPE 242): a link type rudpscope does not decode.
inline Bytes ipoib(const Bytes& ip) {
  Bytes b;
  put16(b, 0x0800);
  put16(b, 0);
  b.insert(b.end(), ip.begin(), ip.end());
  return b;
}

}  // namespace rudp::testgen
