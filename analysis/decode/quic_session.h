// QUIC as a passive observer reads it, datagram by datagram in capture
// order: connections found by connection id (so a migration or a NAT
// rebinding stays one connection), Initial packets opened with the keys of
// the client's first destination connection id, Handshake and 1-RTT packets
// with the secrets a TLS key log (tls_keylog.h) holds for the connection's
// ClientHello random, the cipher the ServerHello chose, key updates followed
// by the key phase bit. Coalesced packets are read one after the other.
//
//   QuicSession s(&keyLog);           // nullptr: no key log
//   for each UDP datagram in order:
//     if (s.read(endpoints, payload, len, out)) ... out.packets ...
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/packet.h"
#include "decode/quic.h"
#include "decode/quic_crypto.h"
#include "decode/tls_keylog.h"

namespace rudp::quic {

struct Endpoint {
  IpAddress addr;
  uint16_t port = 0;
  bool operator==(const Endpoint&) const = default;
  auto operator<=>(const Endpoint&) const = default;
};

// One QUIC packet of a datagram, opened where keys allow.
struct Packet {
  Header header;
  uint32_t at = 0;             // its first byte in the UDP payload
  bool unprotected = false;    // header protection removed: the number is known
  bool decrypted = false;      // the payload opened and its frames parsed
  uint64_t packet_number = 0;  // when unprotected
  uint8_t first = 0;           // the first byte, header protection removed (when unprotected)
  uint32_t pn_len = 0;
  bool key_phase = false;
  bool no_keys = false;  // not decrypted for want of keys (no key log for it, ...)
  // no_keys only for now: the key log has the connection's secrets, but the
  // ServerHello that names their cipher is not in the capture yet (lost,
  // resent later).
  bool keys_pending = false;
  bool header_cut = false;  // the datagram ends inside its header: only `error` says more
  std::string error;        // why it is not decrypted, or a frame fault
  Bytes plaintext;          // the opened payload
  std::vector<Frame> frames;
};

struct Datagram {
  uint64_t connection = 0;  // 1, 2, ... in the order connections were met
  bool from_client = false;
  std::vector<Packet> packets;
  uint32_t padding = 0;  // bytes after the last packet that are not one (no fixed bit)
};

// Where a connection's keys came from, per level, for the "give the key
// log" message and the tests.
struct ConnectionKeys {
  bool client_random = false, cipher = false;
  bool handshake = false, application = false;
  Cipher chosen = Cipher::Aes128Gcm;
};

class QuicSession {
 public:
  // `keys` may be null (no key log); it must outlive the session.
  explicit QuicSession(const KeyLog* keys);
  ~QuicSession();
  QuicSession(const QuicSession&) = delete;
  QuicSession& operator=(const QuicSession&) = delete;

  // Reads one UDP datagram sent from `src` to `dst`. False when it is not
  // QUIC: neither a long header of a known version nor a short header of a
  // connection already met.
  bool read(const Endpoint& src, const Endpoint& dst, const uint8_t* p, uint32_t n, Datagram& out);

  size_t connections() const;
  // The transport parameters an endpoint announced (defaults until then).
  const TransportParameters& parameters(uint64_t connection, bool client) const;
  ConnectionKeys keys(uint64_t connection) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace rudp::quic
