// Tunnel and link encapsulations built byte by byte: GRE, VXLAN, GENEVE,
// GTP-U, MPLS, PPPoE, PPP and 802.11 (plain and with radiotap). Each takes
// the inner packet (IP or Ethernet) as bytes; checksums as senders set them.
#pragma once
#include "frame_builder.h"

namespace rudp::testgen {

inline uint16_t etherTypeOf(const Bytes& ip) { return isIpv6(ip) ? 0x86dd : 0x0800; }

// An Ethernet frame with an explicit EtherType (MPLS, PPPoE, ...).
inline Bytes ethernetOf(uint16_t etherType, const Bytes& payload, const Mac& dst = {2, 0, 0, 0, 0, 2},
                        const Mac& src = {2, 0, 0, 0, 0, 1}) {
  Bytes b(dst.begin(), dst.end());
  b.insert(b.end(), src.begin(), src.end());
  put16(b, etherType);
  append(b, payload);
  if (b.size() < 60) b.resize(60, 0);
  return b;
}

enum GreFlag : uint16_t { kGreChecksum = 0x8000, kGreKey = 0x2000, kGreSeq = 0x1000 };

// GRE version 0; `protocol` 0x0800/0x86dd/0x6558. The checksum covers the
// GRE header and payload.
inline Bytes gre(uint16_t flags, uint16_t protocol, const Bytes& payload, uint32_t key = 0x1234,
                 uint32_t seq = 7) {
  Bytes b;
  put16(b, flags);
  put16(b, protocol);
  if (flags & kGreChecksum) put32(b, 0);
  if (flags & kGreKey) put32(b, key);
  if (flags & kGreSeq) put32(b, seq);
  append(b, payload);
  if (flags & kGreChecksum) {
    const uint16_t c = fold(sum16(b.data(), b.size()));
    b[4] = uint8_t(c >> 8);
    b[5] = uint8_t(c);
  }
  return b;
}

// ERSPAN type II header (version 1, session 5); GRE's sequence flag must be set.
inline Bytes erspanII(const Bytes& frame) {
  Bytes b;
  put32(b, 0x10000005);
  put32(b, 0);  // index
  append(b, frame);
  return b;
}

// ERSPAN type III header (version 2, session 5, frame type Ethernet); with
// `subheader`, the O flag and an 8-byte platform subheader.
inline Bytes erspanIII(const Bytes& frame, bool subheader) {
  Bytes b;
  put32(b, 0x20000005);
  put32(b, 0x12345678);  // timestamp
  put16(b, 0);           // security group tag
  put16(b, subheader ? 0x0007 : 0x0006);
  if (subheader) {
    put32(b, 0x0c000000);
    put32(b, 0);
  }
  append(b, frame);
  return b;
}

inline Bytes vxlan(uint32_t vni, const Bytes& ethernetFrame) {
  Bytes b{0x08, 0, 0, 0};
  put32(b, vni << 8);
  append(b, ethernetFrame);
  return b;
}

// GENEVE with `optionWords` 4-byte words of one option (class 0x0101, type 1).
inline Bytes geneve(uint16_t protocol, uint8_t optionWords, const Bytes& payload) {
  Bytes b{uint8_t(optionWords & 0x3f), 0};
  put16(b, protocol);
  put32(b, 0x00abcd00);  // VNI 0xabcd, reserved
  if (optionWords > 0) {
    put16(b, 0x0101);
    put8(b, 1);
    put8(b, uint8_t(optionWords - 1));  // option data length in words
    for (int i = 1; i < optionWords; ++i) put32(b, 0x11223344);
  }
  append(b, payload);
  return b;
}

// GTPv1-U G-PDU; with `withExtension`, the sequence number flag and one
// PDU session container extension header (4 bytes) are set.
inline Bytes gtpu(uint32_t teid, const Bytes& ip, bool withExtension = false) {
  Bytes ext;
  if (withExtension) {
    put16(ext, 0x0042);                         // sequence number
    put8(ext, 0);                               // N-PDU number
    put8(ext, 0x85);                            // next: PDU session container
    ext.insert(ext.end(), {1, 0x10, 0x09, 0});  // length 1 word, UL, QFI 9, no next
  }
  Bytes b{uint8_t(withExtension ? 0x36 : 0x30), 0xff};
  put16(b, uint16_t(ext.size() + ip.size()));
  put32(b, teid);
  append(b, ext);
  append(b, ip);
  return b;
}

// A label stack (outermost first), bottom-of-stack bit on the last, TTL 64.
inline Bytes mpls(const std::vector<uint32_t>& labels, const Bytes& payload) {
  Bytes b;
  for (size_t i = 0; i < labels.size(); ++i)
    put32(b, labels[i] << 12 | (i + 1 == labels.size() ? 0x100 : 0) | 64);
  append(b, payload);
  return b;
}

inline uint16_t pppProtocolOf(const Bytes& ip) { return isIpv6(ip) ? 0x0057 : 0x0021; }

// PPPoE session header and the PPP protocol (the EtherType 0x8864 payload,
// and LINKTYPE_PPP_ETHER's whole frame).
inline Bytes pppoe(const Bytes& ip) {
  Bytes b{0x11, 0x00};
  put16(b, 0x0042);                   // session id
  put16(b, uint16_t(2 + ip.size()));  // PPP protocol + payload
  put16(b, pppProtocolOf(ip));
  append(b, ip);
  return b;
}

// PPP: with `hdlc`, address 0xff and control 0x03 first.
inline Bytes ppp(const Bytes& ip, bool hdlc) {
  Bytes b;
  if (hdlc) b = {0xff, 0x03};
  put16(b, pppProtocolOf(ip));
  append(b, ip);
  return b;
}

// Cisco HDLC: unicast address 0x0f, control 0, an EtherType.
inline Bytes ciscoHdlc(const Bytes& ip) {
  Bytes b{0x0f, 0x00};
  put16(b, etherTypeOf(ip));
  append(b, ip);
  return b;
}

// An 802.11 data frame from station to AP (ToDS) with LLC/SNAP; QoS data
// when `qos`; `protectedFrame` sets the Protected bit (the body is then
// what the encryption left: not readable); `pad4` pads the header to a
// multiple of 4 bytes, as drivers do when radiotap's Flags say so (0x20).
inline Bytes ieee80211(const Bytes& ip, bool qos, bool protectedFrame = false, bool pad4 = false) {
  Bytes b{uint8_t(qos ? 0x88 : 0x08), uint8_t(0x01 | (protectedFrame ? 0x40 : 0))};
  put16(b, 0x002c);  // duration
  const Bytes bssid{0, 0x11, 0x22, 0x33, 0x44, 0x55}, sta{0, 0x66, 0x77, 0x88, 0x99, 0xaa};
  append(b, bssid);
  append(b, sta);
  append(b, bssid);
  put16(b, 0x0120);  // sequence control
  if (qos) put16(b, 0x0005);
  while (pad4 && b.size() % 4) put8(b, 0);
  b.insert(b.end(), {0xaa, 0xaa, 0x03, 0, 0, 0});
  put16(b, etherTypeOf(ip));
  append(b, ip);
  return b;
}

// Radiotap: TSFT, Flags, Rate, Channel; little-endian. `flags` 0x10: the
// frame ends in an FCS (appended here, zero), 0x20: its header is padded.
inline Bytes radiotap(const Bytes& frame80211, uint8_t flags = 0) {
  Bytes b{0, 0};
  auto le16 = [&](uint16_t v) { b.insert(b.end(), {uint8_t(v), uint8_t(v >> 8)}); };
  le16(22);
  b.insert(b.end(), {0x0f, 0, 0, 0});                   // present: TSFT, Flags, Rate, Channel
  for (int i = 0; i < 8; ++i) b.push_back(uint8_t(i));  // TSFT at offset 8 (8-aligned)
  b.push_back(flags);                                   // Flags
  b.push_back(0x6c);                                    // Rate: 54 Mb/s
  le16(2437);                                           // Channel frequency
  le16(0x00c0);                                         // Channel flags: OFDM, 2 GHz
  append(b, frame80211);
  if (flags & 0x10) put32(b, 0);
  return b;
}

}  // namespace rudp::testgen
