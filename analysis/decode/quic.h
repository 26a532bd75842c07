// QUIC's wire image (RFC 9000, RFC 9369 for v2, RFC 9221 DATAGRAM), read as
// Wireshark's packet-quic.c reads it: what the decryptor (quic_session.h),
// the details tree and the display filters share. Nothing here decrypts:
// headers are read as far as they are not protected, frames from a packet's
// plaintext.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rudp::quic {

inline constexpr uint32_t kVersion1 = 0x00000001;
inline constexpr uint32_t kVersion2 = 0x6b3343cf;
inline constexpr uint32_t kMaxConnIdLen = 20;
inline constexpr uint16_t kDefaultPort = 443;

// A bounded reader over bytes; every read fails (and stays failed) past the end.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), end_(p + n) {}
  bool varint(uint64_t& v);  // RFC 9000 16: 1, 2, 4 or 8 bytes
  bool byte(uint8_t& v);
  bool uint(uint32_t bytes, uint64_t& v);  // big-endian, 1..8 bytes
  bool skip(uint64_t n);
  // `n` bytes in place; false when fewer remain.
  bool bytes(uint64_t n, const uint8_t*& at);
  const uint8_t* at() const { return p_; }
  size_t left() const { return ok_ ? size_t(end_ - p_) : 0; }
  bool ok() const { return ok_; }

 private:
  bool fail() { return ok_ = false; }
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

// The number of bytes a varint starting with `first` takes.
inline uint32_t varintLength(uint8_t first) { return 1u << (first >> 6); }

struct ConnId {
  uint8_t len = 0;
  uint8_t id[kMaxConnIdLen] = {};
  bool operator==(const ConnId& o) const;
  std::string hex() const;  // as tshark prints quic.dcid: lower-case hex, no separators
};

enum class PacketType : uint8_t { Initial, ZeroRtt, Handshake, Retry, VersionNegotiation, OneRtt };
// The packet-number space a packet type's numbers count in.
enum class Space : uint8_t { Initial, Handshake, Application };
inline constexpr int kSpaces = 3;
Space spaceOf(PacketType t);
const char* packetTypeName(PacketType t);  // "Initial", "1-RTT", ... as tshark's Info column names them

// A packet's header as far as it can be read before header protection is
// removed. `size`: the whole packet's bytes (a long header's Length counts
// the rest; a short header packet runs to the datagram's end).
struct Header {
  bool long_header = false;
  PacketType type = PacketType::OneRtt;
  uint8_t first = 0;  // the first byte as on the wire (protected)
  uint32_t version = 0;
  ConnId dcid, scid;
  uint32_t token_at = 0, token_len = 0;  // Initial only
  uint64_t length = 0;                   // long header's Length field
  uint32_t pn_at = 0;                    // where the protected packet number starts
  uint32_t size = 0;
  bool spin = false;  // short header only (not protected)
};

// Reads the header of the packet at `p` (n bytes left in the datagram).
// A short header's destination connection id has no length on the wire:
// `shortDcidLen` gives it (the connection's). Returns an error text
// ("truncated long header", ...) or "" when the header is whole.
std::string parseHeader(const uint8_t* p, uint32_t n, uint8_t shortDcidLen, Header& h);
// The long header's packet type bits for `version` (v2 permutes them).
PacketType longPacketType(uint32_t version, uint8_t first);
bool knownVersion(uint32_t version);

// RFC 9000 A.3: the full packet number from the `bits`-bit truncated one,
// given the largest number received so far in its space (-1: none).
uint64_t expandPacketNumber(int64_t largest, uint64_t truncated, uint32_t bits);

// ---- Frames (RFC 9000 19, RFC 9221) ----
namespace frame {
inline constexpr uint64_t kPadding = 0x00, kPing = 0x01, kAck = 0x02, kAckEcn = 0x03, kResetStream = 0x04,
                          kStopSending = 0x05, kCrypto = 0x06, kNewToken = 0x07, kStreamFirst = 0x08,
                          kStreamLast = 0x0f, kMaxData = 0x10, kMaxStreamData = 0x11, kMaxStreamsBidi = 0x12,
                          kMaxStreamsUni = 0x13, kDataBlocked = 0x14, kStreamDataBlocked = 0x15,
                          kStreamsBlockedBidi = 0x16, kStreamsBlockedUni = 0x17, kNewConnectionId = 0x18,
                          kRetireConnectionId = 0x19, kPathChallenge = 0x1a, kPathResponse = 0x1b,
                          kConnectionClose = 0x1c, kApplicationClose = 0x1d, kHandshakeDone = 0x1e,
                          kDatagram = 0x30, kDatagramLen = 0x31;
// STREAM's type bits.
inline constexpr uint64_t kStreamOff = 0x04, kStreamLen = 0x02, kStreamFin = 0x01;
}  // namespace frame

struct AckRange {
  uint64_t smallest = 0, largest = 0;
};

struct Frame {
  uint64_t type = 0;
  uint32_t at = 0, size = 0;  // in the packet's plaintext
  // ACK: largest, raw delay, first range, then the gap/range pairs as sent;
  // `ranges` holds what they acknowledge, largest first.
  uint64_t largest = 0, ack_delay = 0, first_range = 0;
  std::vector<std::pair<uint64_t, uint64_t>> gaps;  // (gap, ack range length)
  std::vector<AckRange> ranges;
  uint64_t ecn[3] = {};  // ECT0, ECT1, CE (ACK_ECN)
  // STREAM, CRYPTO, DATAGRAM, RESET_STREAM, MAX_*, ...: the frame's numbers.
  uint64_t stream_id = 0, offset = 0, length = 0;
  bool fin = false;
  // STREAM / CRYPTO / DATAGRAM / NEW_TOKEN data, CONNECTION_CLOSE's reason
  // phrase, PATH_CHALLENGE's / PATH_RESPONSE's 8 bytes: where they are in the
  // plaintext (`length` bytes).
  uint32_t data_at = 0;
  uint64_t value = 0;               // MAX_DATA's maximum, an error code, a sequence number ...
  uint64_t padding = 0;             // PADDING: the run's length (tshark shows a run as one frame)
  uint64_t closing_frame_type = 0;  // a transport CONNECTION_CLOSE's: the frame that caused it
  ConnId conn_id;                   // NEW_CONNECTION_ID
  uint64_t retire_prior_to = 0;
  bool is(uint64_t t) const { return type == t; }
  bool isStream() const { return type >= frame::kStreamFirst && type <= frame::kStreamLast; }
  bool isAck() const { return type == frame::kAck || type == frame::kAckEcn; }
  bool isDatagram() const { return type == frame::kDatagram || type == frame::kDatagramLen; }
};

// RFC 9002 2: every frame but ACK, PADDING and CONNECTION_CLOSE elicits an ACK.
bool ackEliciting(uint64_t type);
// "ACK", "MAX_STREAMS (BIDI)", ...: packet-quic.c's names (quic_frame_type_vals),
// in the details tree and error texts; "Unknown" for a type it does not
// know (quic_info.h has the Info column's short names).
const char* frameTypeName(uint64_t type);

// Parses a packet's plaintext into frames. Returns "" or an error naming
// the frame ("ACK frame: truncated"); the frames before it stay.
std::string parseFrames(const uint8_t* p, uint32_t n, std::vector<Frame>& out);

// ---- TLS inside CRYPTO frames (RFC 9001 4, RFC 8446 4) ----
namespace tls {
inline constexpr uint8_t kClientHello = 1, kServerHello = 2, kEncryptedExtensions = 8;
inline constexpr uint16_t kTransportParameters = 0x39;
inline constexpr uint16_t kAes128GcmSha256 = 0x1301, kAes256GcmSha384 = 0x1302,
                          kChaCha20Poly1305Sha256 = 0x1303;
}  // namespace tls

// The transport parameters the analysis uses (RFC 9000 18.2), with their defaults.
struct TransportParameters {
  uint64_t ack_delay_exponent = 3;
  uint64_t max_ack_delay_ms = 25;
  bool has_ack_delay_exponent = false, has_max_ack_delay = false;
  uint64_t max_datagram_frame_size = 0;
};

// What the analysis needs of one TLS handshake message at the start of a
// CRYPTO stream: a ClientHello's random, a ServerHello's cipher suite, the
// transport parameters a ClientHello or EncryptedExtensions carries.
struct HandshakeMessage {
  uint8_t type = 0;
  uint32_t size = 0;  // header included
  uint8_t random[32] = {};
  uint16_t cipher_suite = 0;
  bool has_transport_parameters = false;
  TransportParameters params;
};
// Reads the handshake message at `p`. Returns false when it is not whole
// yet (`need` says how many bytes it takes) or is malformed (`need` = 0).
bool parseHandshakeMessage(const uint8_t* p, uint32_t n, HandshakeMessage& m, uint32_t& need);
bool parseTransportParameters(const uint8_t* p, uint32_t n, TransportParameters& out);

}  // namespace rudp::quic
