// Content hash of a file (XXH3-128 from Debian's libxxhash: fast enough to
// hash a multi-GB capture at disk speed; it identifies content, it is not a
// security check).
#pragma once
#include <string>

namespace rudp {

inline constexpr const char* kFileHashAlgorithm = "xxh3-128";
// Hex digest; throws Error when the file cannot be read.
std::string hashFile(const std::string& path);

}  // namespace rudp
