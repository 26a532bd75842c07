// QUIC packet protection (RFC 9001 5, RFC 9369 3.3 for v2) through OpenSSL 3:
// keys from a traffic secret, the Initial secrets from the client's first
// destination connection id, header protection removal, AEAD opening and
// the key update's next secret. OpenSSL is Debian's (libssl3); no library
// on Debian 12 opens QUIC packets for a passive observer (ngtcp2 0.12 ties
// its helpers to a connection object), so this is the thin layer over EVP.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "decode/quic.h"

namespace rudp::quic {

enum class Cipher : uint8_t { Aes128Gcm, Aes256Gcm, ChaCha20Poly1305 };
// The TLS 1.3 cipher suite's AEAD (tls::kAes128GcmSha256, ...); false for others.
bool cipherOfSuite(uint16_t suite, Cipher& out);
const char* cipherName(Cipher c);

using Bytes = std::vector<uint8_t>;

// One direction's keys at one encryption level (and key phase).
struct PacketKeys {
  Cipher cipher = Cipher::Aes128Gcm;
  uint32_t version = kVersion1;
  Bytes secret, key, iv, hp;
  bool valid() const { return !key.empty(); }
};

// RFC 8446 7.1's HKDF-Expand-Label with the hash of `cipher` (SHA-384 for
// AES-256-GCM, else SHA-256) and an empty context.
Bytes hkdfExpandLabel(Cipher cipher, const Bytes& secret, const std::string& label, size_t length);
PacketKeys keysFromSecret(Cipher cipher, uint32_t version, const Bytes& secret);
// The next key phase's keys (RFC 9001 6.1: "quic ku"; the header protection key stays).
PacketKeys nextKeys(const PacketKeys& current);

struct InitialKeys {
  PacketKeys client, server;
};
// RFC 9001 5.2 (v2: RFC 9369 3.3.1's salt and labels).
InitialKeys initialKeys(uint32_t version, const ConnId& clientDcid);

// RFC 9001 5.4: the 5-byte mask from the 16-byte sample.
bool headerProtectionMask(const PacketKeys& k, const uint8_t* sample, uint8_t mask[5]);

// A packet with its header protection removed.
struct Unprotected {
  uint8_t first = 0;          // the first byte, unmasked
  uint32_t pn_len = 0;        // 1..4
  uint64_t truncated_pn = 0;  // as on the wire, unmasked
  uint32_t payload_at = 0;    // after the packet number
  bool key_phase = false;     // short header only
};
// Removes header protection from the packet at `p` (its Header `h`, whole in
// `p`). False when the packet is too short to hold a sample.
bool removeHeaderProtection(const PacketKeys& k, const uint8_t* p, const Header& h, Unprotected& out);

// Opens the payload: AAD is the unprotected header (`header`, `headerLen`
// bytes), the ciphertext runs from `ct` for `ctLen` bytes, the 16-byte tag
// included. Fills `plain` and returns true when the tag checks.
bool openPayload(const PacketKeys& k, uint64_t pn, const uint8_t* header, uint32_t headerLen,
                 const uint8_t* ct, uint32_t ctLen, Bytes& plain);

inline constexpr uint32_t kTagLen = 16;
inline constexpr uint32_t kSampleLen = 16;

// Hex of bytes, and bytes of hex (false on a non-hex digit or odd length).
std::string toHex(const Bytes& b);
bool fromHex(const std::string& hex, Bytes& out);

}  // namespace rudp::quic
