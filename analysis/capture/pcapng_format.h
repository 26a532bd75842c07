// pcapng's block types, option codes and padding (draft-ietf-opsawg-pcapng),
// shared by the reader and the writer.
#pragma once
#include <cstdint>

namespace rudp::pcapng {

inline constexpr uint32_t kSectionHeader = 0x0A0D0D0A;
inline constexpr uint32_t kInterfaceDescription = 1;
inline constexpr uint32_t kObsoletePacket = 2;
inline constexpr uint32_t kSimplePacket = 3;
inline constexpr uint32_t kEnhancedPacket = 6;
inline constexpr uint32_t kDecryptionSecrets = 0x0000000A;
inline constexpr uint32_t kSecretsTlsKeyLog = 0x544c534b;  // "TLSK": an NSS key log's text
inline constexpr uint32_t kCustomCopy = 0x00000BAD, kCustomNoCopy = 0x40000BAD;
inline constexpr uint32_t kByteOrderMagic = 0x1A2B3C4D;
inline constexpr uint16_t kOptComment = 1, kIfName = 2;
inline constexpr uint16_t kOptEnd = 0, kShbUserAppl = 4, kIfTsresol = 9, kIfTsoffset = 14;

inline uint32_t pad4(uint32_t n) { return (n + 3u) & ~3u; }

}  // namespace rudp::pcapng
