#include "decode/quic_crypto.h"

#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include <cstring>
#include <memory>

#include "core/label_text.h"

namespace rudp::quic {

namespace {

struct CipherCtxFree {
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherCtxFree>;

const char* digestOf(Cipher c) { return c == Cipher::Aes256Gcm ? "SHA384" : "SHA256"; }
size_t keyLength(Cipher c) { return c == Cipher::Aes128Gcm ? 16 : 32; }

const EVP_CIPHER* aead(Cipher c) {
  switch (c) {
    case Cipher::Aes128Gcm: return EVP_aes_128_gcm();
    case Cipher::Aes256Gcm: return EVP_aes_256_gcm();
    case Cipher::ChaCha20Poly1305: return EVP_chacha20_poly1305();
  }
  return nullptr;
}

// HKDF through OpenSSL 3's KDF interface, in one mode (extract or expand).
Bytes hkdf(Cipher c, int mode, const Bytes& key, const Bytes& saltOrInfo, size_t length) {
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  EVP_KDF_CTX* ctx = kdf ? EVP_KDF_CTX_new(kdf) : nullptr;
  EVP_KDF_free(kdf);
  if (!ctx) return {};
  const bool extract = mode == EVP_KDF_HKDF_MODE_EXTRACT_ONLY;
  OSSL_PARAM params[5];
  int i = 0;
  params[i++] = OSSL_PARAM_construct_int("mode", &mode);
  params[i++] = OSSL_PARAM_construct_utf8_string("digest", const_cast<char*>(digestOf(c)), 0);
  params[i++] = OSSL_PARAM_construct_octet_string("key", const_cast<uint8_t*>(key.data()), key.size());
  params[i++] = OSSL_PARAM_construct_octet_string(extract ? "salt" : "info",
                                                  const_cast<uint8_t*>(saltOrInfo.data()), saltOrInfo.size());
  params[i] = OSSL_PARAM_construct_end();
  Bytes out(extract ? size_t(EVP_MD_get_size(EVP_get_digestbyname(digestOf(c)))) : length);
  const bool ok = EVP_KDF_derive(ctx, out.data(), out.size(), params) == 1;
  EVP_KDF_CTX_free(ctx);
  return ok ? out : Bytes{};
}

// v1 and v2 name their labels differently (RFC 9369 3.3.2).
std::string label(uint32_t version, const char* what) {
  return std::string(version == kVersion2 ? "quicv2 " : "quic ") + what;
}

}  // namespace

bool cipherOfSuite(uint16_t suite, Cipher& out) {
  switch (suite) {
    case tls::kAes128GcmSha256: out = Cipher::Aes128Gcm; return true;
    case tls::kAes256GcmSha384: out = Cipher::Aes256Gcm; return true;
    case tls::kChaCha20Poly1305Sha256: out = Cipher::ChaCha20Poly1305; return true;
    default: return false;
  }
}

const char* cipherName(Cipher c) {
  switch (c) {
    case Cipher::Aes128Gcm: return "AES-128-GCM";
    case Cipher::Aes256Gcm: return "AES-256-GCM";
    case Cipher::ChaCha20Poly1305: return "ChaCha20-Poly1305";
  }
  return "";
}

Bytes hkdfExpandLabel(Cipher cipher, const Bytes& secret, const std::string& label, size_t length) {
  const std::string full = "tls13 " + label;
  Bytes info{uint8_t(length >> 8), uint8_t(length), uint8_t(full.size())};
  info.insert(info.end(), full.begin(), full.end());
  info.push_back(0);  // empty context
  return hkdf(cipher, EVP_KDF_HKDF_MODE_EXPAND_ONLY, secret, info, length);
}

PacketKeys keysFromSecret(Cipher cipher, uint32_t version, const Bytes& secret) {
  PacketKeys k;
  k.cipher = cipher;
  k.version = version;
  k.secret = secret;
  k.key = hkdfExpandLabel(cipher, secret, label(version, "key"), keyLength(cipher));
  k.iv = hkdfExpandLabel(cipher, secret, label(version, "iv"), 12);
  k.hp = hkdfExpandLabel(cipher, secret, label(version, "hp"), keyLength(cipher));
  if (k.iv.empty() || k.hp.empty()) k.key.clear();
  return k;
}

PacketKeys nextKeys(const PacketKeys& current) {
  const Bytes secret =
      hkdfExpandLabel(current.cipher, current.secret, label(current.version, "ku"), current.secret.size());
  PacketKeys next = keysFromSecret(current.cipher, current.version, secret);
  next.hp = current.hp;
  return next;
}

InitialKeys initialKeys(uint32_t version, const ConnId& clientDcid) {
  static const Bytes v1Salt{0x38, 0x76, 0x2c, 0xf7, 0xf5, 0x59, 0x34, 0xb3, 0x4d, 0x17,
                            0x9a, 0xe6, 0xa4, 0xc8, 0x0c, 0xad, 0xcc, 0xbb, 0x7f, 0x0a};
  static const Bytes v2Salt{0x0d, 0xed, 0xe3, 0xde, 0xf7, 0x00, 0xa6, 0xdb, 0x81, 0x93,
                            0x81, 0xbe, 0x6e, 0x26, 0x9d, 0xcb, 0xf9, 0xbd, 0x2e, 0xd9};
  const Cipher c = Cipher::Aes128Gcm;
  const Bytes dcid(clientDcid.id, clientDcid.id + clientDcid.len);
  const Bytes initial =
      hkdf(c, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, dcid, version == kVersion2 ? v2Salt : v1Salt, 0);
  InitialKeys keys;
  keys.client = keysFromSecret(c, version, hkdfExpandLabel(c, initial, "client in", 32));
  keys.server = keysFromSecret(c, version, hkdfExpandLabel(c, initial, "server in", 32));
  return keys;
}

bool headerProtectionMask(const PacketKeys& k, const uint8_t* sample, uint8_t mask[5]) {
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  uint8_t out[32];
  int len = 0;
  if (!ctx) return false;
  if (k.cipher == Cipher::ChaCha20Poly1305) {
    // RFC 9001 5.4.4: the sample is the 4-byte counter (little-endian) and
    // the 12-byte nonce, which is OpenSSL's 16-byte ChaCha20 IV.
    static const uint8_t zeros[5] = {};
    if (EVP_EncryptInit_ex(ctx.get(), EVP_chacha20(), nullptr, k.hp.data(), sample) != 1 ||
        EVP_EncryptUpdate(ctx.get(), out, &len, zeros, 5) != 1)
      return false;
  } else {
    const EVP_CIPHER* ecb = k.cipher == Cipher::Aes256Gcm ? EVP_aes_256_ecb() : EVP_aes_128_ecb();
    if (EVP_EncryptInit_ex(ctx.get(), ecb, nullptr, k.hp.data(), nullptr) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1 ||
        EVP_EncryptUpdate(ctx.get(), out, &len, sample, kSampleLen) != 1)
      return false;
  }
  std::memcpy(mask, out, 5);
  return true;
}

bool removeHeaderProtection(const PacketKeys& k, const uint8_t* p, const Header& h, Unprotected& out) {
  // RFC 9001 5.4.2: the sample starts 4 bytes after the packet number's start.
  if (uint64_t(h.pn_at) + 4 + kSampleLen > h.size) return false;
  uint8_t mask[5];
  if (!headerProtectionMask(k, p + h.pn_at + 4, mask)) return false;
  out.first = uint8_t(p[0] ^ (mask[0] & (h.long_header ? 0x0f : 0x1f)));
  out.pn_len = (out.first & 3u) + 1;
  out.truncated_pn = 0;
  for (uint32_t i = 0; i < out.pn_len; ++i)
    out.truncated_pn = out.truncated_pn << 8 | uint8_t(p[h.pn_at + i] ^ mask[1 + i]);
  out.payload_at = h.pn_at + out.pn_len;
  out.key_phase = !h.long_header && (out.first & 0x04) != 0;
  return true;
}

bool openPayload(const PacketKeys& k, uint64_t pn, const uint8_t* header, uint32_t headerLen,
                 const uint8_t* ct, uint32_t ctLen, Bytes& plain) {
  if (ctLen < kTagLen || k.iv.size() != 12) return false;
  uint8_t nonce[12];
  std::memcpy(nonce, k.iv.data(), 12);
  for (int i = 0; i < 8; ++i) nonce[11 - i] ^= uint8_t(pn >> (8 * i));
  CipherCtx ctx(EVP_CIPHER_CTX_new());
  const uint32_t bodyLen = ctLen - kTagLen;
  plain.resize(bodyLen);
  int len = 0;
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), aead(k.cipher), nullptr, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, 12, nullptr) != 1 ||
      EVP_DecryptInit_ex(ctx.get(), nullptr, nullptr, k.key.data(), nonce) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &len, header, int(headerLen)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), plain.data(), &len, ct, int(bodyLen)) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, kTagLen, const_cast<uint8_t*>(ct + bodyLen)) != 1)
    return false;
  int tail = 0;
  return EVP_DecryptFinal_ex(ctx.get(), plain.data() + len, &tail) == 1;
}

std::string toHex(const Bytes& b) { return hexBytes(b.data(), uint32_t(b.size()), false); }

bool fromHex(const std::string& hex, Bytes& out) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2) return false;
  out.clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(uint8_t(hi << 4 | lo));
  }
  return true;
}

}  // namespace rudp::quic
