#include "decode/quic.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "core/bytes.h"
#include "core/label_text.h"

namespace rudp::quic {

bool Reader::byte(uint8_t& v) {
  if (!ok_ || p_ == end_) return fail();
  v = *p_++;
  return true;
}

bool Reader::uint(uint32_t bytes, uint64_t& v) {
  if (!ok_ || size_t(end_ - p_) < bytes) return fail();
  v = beN(p_, bytes);
  p_ += bytes;
  return true;
}

bool Reader::varint(uint64_t& v) {
  if (!ok_ || p_ == end_) return fail();
  const uint32_t n = varintLength(*p_);
  if (!uint(n, v)) return false;
  v &= ~(uint64_t(0xc0) << (8 * (n - 1)));
  return true;
}

bool Reader::skip(uint64_t n) {
  if (!ok_ || uint64_t(end_ - p_) < n) return fail();
  p_ += n;
  return true;
}

bool Reader::bytes(uint64_t n, const uint8_t*& at) {
  at = p_;
  return skip(n);
}

bool ConnId::operator==(const ConnId& o) const { return len == o.len && std::memcmp(id, o.id, len) == 0; }

std::string ConnId::hex() const { return hexBytes(id, len, false); }

Space spaceOf(PacketType t) {
  switch (t) {
    case PacketType::Initial: return Space::Initial;
    case PacketType::Handshake: return Space::Handshake;
    default: return Space::Application;
  }
}

const char* packetTypeName(PacketType t) {
  switch (t) {
    case PacketType::Initial: return "Initial";
    case PacketType::ZeroRtt: return "0-RTT";
    case PacketType::Handshake: return "Handshake";
    case PacketType::Retry: return "Retry";
    case PacketType::VersionNegotiation: return "Version Negotiation";
    case PacketType::OneRtt: return "1-RTT";
  }
  return "";
}

bool knownVersion(uint32_t version) { return version == kVersion1 || version == kVersion2; }

PacketType longPacketType(uint32_t version, uint8_t first) {
  const uint8_t bits = (first >> 4) & 3;
  // RFC 9369 3.2: v2 numbers them Retry 0, Initial 1, 0-RTT 2, Handshake 3.
  static constexpr PacketType v1[] = {PacketType::Initial, PacketType::ZeroRtt, PacketType::Handshake,
                                      PacketType::Retry};
  static constexpr PacketType v2[] = {PacketType::Retry, PacketType::Initial, PacketType::ZeroRtt,
                                      PacketType::Handshake};
  return version == kVersion2 ? v2[bits] : v1[bits];
}

namespace {

bool readConnId(Reader& r, ConnId& c) {
  uint8_t len = 0;
  const uint8_t* at = nullptr;
  if (!r.byte(len) || len > kMaxConnIdLen || !r.bytes(len, at)) return false;
  c.len = len;
  std::memcpy(c.id, at, len);
  return true;
}

std::string parseLongHeader(const uint8_t* p, uint32_t n, Header& h) {
  Reader r(p + 1, n - 1);
  uint64_t version = 0;
  if (!r.uint(4, version) || !readConnId(r, h.dcid) || !readConnId(r, h.scid)) return "truncated long header";
  h.version = uint32_t(version);
  if (h.version == 0) {
    h.type = PacketType::VersionNegotiation;
    h.size = n;
    return "";
  }
  if (!knownVersion(h.version)) {
    h.size = n;
    char text[40];
    std::snprintf(text, sizeof text, "unknown QUIC version 0x%08x", h.version);
    return text;
  }
  h.type = longPacketType(h.version, p[0]);
  if (h.type == PacketType::Retry) {
    h.size = n;
    return "";
  }
  if (h.type == PacketType::Initial) {
    uint64_t tokenLen = 0;
    if (!r.varint(tokenLen)) return "truncated long header";
    h.token_at = uint32_t(r.at() - p);
    if (!r.skip(tokenLen)) return "truncated token";
    h.token_len = uint32_t(tokenLen);
  }
  if (!r.varint(h.length)) return "truncated long header";
  h.pn_at = uint32_t(r.at() - p);
  if (h.length > r.left()) return "Length beyond the datagram";
  h.size = h.pn_at + uint32_t(h.length);
  return "";
}

}  // namespace

std::string parseHeader(const uint8_t* p, uint32_t n, uint8_t shortDcidLen, Header& h) {
  h = Header{};
  if (n == 0) return "empty packet";
  h.first = p[0];
  h.long_header = (p[0] & 0x80) != 0;
  if (h.long_header) return parseLongHeader(p, n, h);
  h.type = PacketType::OneRtt;
  h.spin = (p[0] & 0x20) != 0;
  if (n < 1u + shortDcidLen) return "truncated short header";
  h.dcid.len = shortDcidLen;
  std::memcpy(h.dcid.id, p + 1, shortDcidLen);
  h.pn_at = 1u + shortDcidLen;
  h.size = n;
  return "";
}

uint64_t expandPacketNumber(int64_t largest, uint64_t truncated, uint32_t bits) {
  const uint64_t expected = uint64_t(largest + 1);
  const uint64_t win = uint64_t(1) << bits, hwin = win / 2, mask = win - 1;
  const uint64_t candidate = (expected & ~mask) | truncated;
  if (candidate + hwin <= expected && candidate < (uint64_t(1) << 62) - win) return candidate + win;
  if (candidate > expected + hwin && candidate >= win) return candidate - win;
  return candidate;
}

bool ackEliciting(uint64_t type) {
  return type != frame::kPadding && type != frame::kAck && type != frame::kAckEcn &&
         type != frame::kConnectionClose && type != frame::kApplicationClose;
}

const char* frameTypeName(uint64_t type) {
  using namespace frame;
  if (type >= kStreamFirst && type <= kStreamLast) return "STREAM";
  switch (type) {
    case kPadding: return "PADDING";
    case kPing: return "PING";
    case kAck:
    case kAckEcn: return "ACK";
    case kResetStream: return "RESET_STREAM";
    case kStopSending: return "STOP_SENDING";
    case kCrypto: return "CRYPTO";
    case kNewToken: return "NEW_TOKEN";
    case kMaxData: return "MAX_DATA";
    case kMaxStreamData: return "MAX_STREAM_DATA";
    case kMaxStreamsBidi: return "MAX_STREAMS (BIDI)";
    case kMaxStreamsUni: return "MAX_STREAMS (UNI)";
    case kDataBlocked: return "DATA_BLOCKED";
    case kStreamDataBlocked: return "STREAM_DATA_BLOCKED";
    case kStreamsBlockedBidi: return "STREAMS_BLOCKED (BIDI)";
    case kStreamsBlockedUni: return "STREAMS_BLOCKED (UNI)";
    case kNewConnectionId: return "NEW_CONNECTION_ID";
    case kRetireConnectionId: return "RETIRE_CONNECTION_ID";
    case kPathChallenge: return "PATH_CHALLENGE";
    case kPathResponse: return "PATH_RESPONSE";
    case kConnectionClose: return "CONNECTION_CLOSE (Transport)";
    case kApplicationClose: return "CONNECTION_CLOSE (Application)";
    case kHandshakeDone: return "HANDSHAKE_DONE";
    case kDatagram:
    case kDatagramLen: return "DATAGRAM";
    default: return "Unknown";
  }
}

namespace {

// ACK (RFC 9000 19.3): largest, delay, range count, first range, then
// gap/range pairs, each range below the previous one.
bool readAck(Reader& r, Frame& f) {
  uint64_t count = 0;
  if (!r.varint(f.largest) || !r.varint(f.ack_delay) || !r.varint(count) || !r.varint(f.first_range))
    return false;
  if (f.first_range > f.largest) return false;
  f.ranges.push_back({f.largest - f.first_range, f.largest});
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t gap = 0, len = 0;
    if (!r.varint(gap) || !r.varint(len)) return false;
    const uint64_t below = f.ranges.back().smallest;
    if (below < gap + 2 || below - gap - 2 < len) return false;  // would acknowledge below 0
    const uint64_t largest = below - gap - 2;
    f.gaps.emplace_back(gap, len);
    f.ranges.push_back({largest - len, largest});
  }
  if (f.type == frame::kAckEcn)
    for (uint64_t& c : f.ecn)
      if (!r.varint(c)) return false;
  return true;
}

bool readStream(Reader& r, Frame& f, const uint8_t* base) {
  if (!r.varint(f.stream_id)) return false;
  if ((f.type & frame::kStreamOff) && !r.varint(f.offset)) return false;
  if (f.type & frame::kStreamLen) {
    if (!r.varint(f.length)) return false;
  } else {
    f.length = r.left();
  }
  f.fin = (f.type & frame::kStreamFin) != 0;
  f.data_at = uint32_t(r.at() - base);
  return r.skip(f.length) && f.offset + f.length < (uint64_t(1) << 62);
}

bool readLengthAndData(Reader& r, Frame& f, const uint8_t* base) {
  if (!r.varint(f.length)) return false;
  f.data_at = uint32_t(r.at() - base);
  return r.skip(f.length);
}

bool readNewConnectionId(Reader& r, Frame& f) {
  if (!r.varint(f.value) || !r.varint(f.retire_prior_to) || f.retire_prior_to > f.value) return false;
  uint8_t len = 0;
  const uint8_t* at = nullptr;
  if (!r.byte(len) || len < 1 || len > kMaxConnIdLen || !r.bytes(len, at)) return false;
  f.conn_id.len = len;
  std::memcpy(f.conn_id.id, at, len);
  return r.skip(16);  // stateless reset token
}

bool readConnectionClose(Reader& r, Frame& f, const uint8_t* base) {
  if (!r.varint(f.value)) return false;
  if (f.type == frame::kConnectionClose && !r.varint(f.closing_frame_type)) return false;
  return readLengthAndData(r, f, base);  // the reason phrase
}

// One frame after its type; false when malformed.
bool readFrameBody(Reader& r, Frame& f, const uint8_t* base) {
  using namespace frame;
  if (f.isStream()) return readStream(r, f, base);
  switch (f.type) {
    case kPadding:
      f.padding = 1;
      while (r.left() && *r.at() == 0 && r.skip(1)) ++f.padding;
      return true;
    case kPing:
    case kHandshakeDone: return true;
    case kAck:
    case kAckEcn: return readAck(r, f);
    case kResetStream: return r.varint(f.stream_id) && r.varint(f.value) && r.varint(f.offset);
    case kStopSending: return r.varint(f.stream_id) && r.varint(f.value);
    case kCrypto: return r.varint(f.offset) && readLengthAndData(r, f, base);
    case kNewToken: return readLengthAndData(r, f, base);
    case kMaxData:
    case kMaxStreamsBidi:
    case kMaxStreamsUni:
    case kDataBlocked:
    case kStreamsBlockedBidi:
    case kStreamsBlockedUni:
    case kRetireConnectionId: return r.varint(f.value);
    case kMaxStreamData:
    case kStreamDataBlocked: return r.varint(f.stream_id) && r.varint(f.value);
    case kNewConnectionId: return readNewConnectionId(r, f);
    case kPathChallenge:
    case kPathResponse:
      f.length = 8;
      f.data_at = uint32_t(r.at() - base);
      return r.skip(8);
    case kConnectionClose:
    case kApplicationClose: return readConnectionClose(r, f, base);
    case kDatagram:
      f.length = r.left();
      f.data_at = uint32_t(r.at() - base);
      return r.skip(f.length);
    case kDatagramLen: return readLengthAndData(r, f, base);
    default: return false;
  }
}

}  // namespace

std::string parseFrames(const uint8_t* p, uint32_t n, std::vector<Frame>& out) {
  Reader r(p, n);
  while (r.left()) {
    Frame f;
    f.at = uint32_t(r.at() - p);
    if (!r.varint(f.type)) return "frame type: truncated";
    if (!readFrameBody(r, f, p)) {
      const bool known = std::string_view(frameTypeName(f.type)) != "Unknown";
      return known ? std::string(frameTypeName(f.type)) + " frame: malformed"
                   : "unknown frame type " + std::to_string(f.type);
    }
    f.size = uint32_t(r.at() - p) - f.at;
    out.push_back(std::move(f));
  }
  return "";
}

bool parseTransportParameters(const uint8_t* p, uint32_t n, TransportParameters& out) {
  Reader r(p, n);
  while (r.left()) {
    uint64_t id = 0, len = 0;
    const uint8_t* at = nullptr;
    if (!r.varint(id) || !r.varint(len) || !r.bytes(len, at)) return false;
    Reader v(at, size_t(len));
    uint64_t value = 0;
    if (id == 0x0a && v.varint(value)) {
      out.ack_delay_exponent = value;
      out.has_ack_delay_exponent = true;
    } else if (id == 0x0b && v.varint(value)) {
      out.max_ack_delay_ms = value;
      out.has_max_ack_delay = true;
    } else if (id == 0x20 && v.varint(value)) {
      out.max_datagram_frame_size = value;
    }
  }
  return true;
}

namespace {

// The extensions block of a ClientHello or EncryptedExtensions.
bool readExtensions(Reader& r, HandshakeMessage& m) {
  uint64_t total = 0;
  const uint8_t* at = nullptr;
  if (!r.uint(2, total) || !r.bytes(total, at)) return false;
  Reader e(at, size_t(total));
  while (e.left()) {
    uint64_t type = 0, len = 0;
    const uint8_t* body = nullptr;
    if (!e.uint(2, type) || !e.uint(2, len) || !e.bytes(len, body)) return false;
    if (type == tls::kTransportParameters) {
      m.has_transport_parameters = parseTransportParameters(body, uint32_t(len), m.params);
      if (!m.has_transport_parameters) return false;
    }
  }
  return true;
}

bool readClientHello(Reader& r, HandshakeMessage& m) {
  uint64_t ignored = 0, len = 0;
  const uint8_t* random = nullptr;
  if (!r.uint(2, ignored) || !r.bytes(32, random)) return false;
  std::memcpy(m.random, random, 32);
  // session id, cipher suites, compression methods
  return r.uint(1, len) && r.skip(len) && r.uint(2, len) && r.skip(len) && r.uint(1, len) && r.skip(len) &&
         readExtensions(r, m);
}

bool readServerHello(Reader& r, HandshakeMessage& m) {
  uint64_t ignored = 0, len = 0, suite = 0;
  const uint8_t* random = nullptr;
  if (!r.uint(2, ignored) || !r.bytes(32, random) || !r.uint(1, len) || !r.skip(len) || !r.uint(2, suite))
    return false;
  std::memcpy(m.random, random, 32);
  m.cipher_suite = uint16_t(suite);
  return true;
}

}  // namespace

bool parseHandshakeMessage(const uint8_t* p, uint32_t n, HandshakeMessage& m, uint32_t& need) {
  need = 4;
  if (n < 4) return false;
  m = HandshakeMessage{};
  m.type = p[0];
  m.size = 4 + (uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]);
  need = m.size;
  if (n < m.size) return false;
  need = 0;
  Reader r(p + 4, m.size - 4);
  switch (m.type) {
    case tls::kClientHello: return readClientHello(r, m);
    case tls::kServerHello: return readServerHello(r, m);
    case tls::kEncryptedExtensions: return readExtensions(r, m);
    default: return true;
  }
}

}  // namespace rudp::quic
