// A TLS key log (the NSS format SSLKEYLOGFILE and Go's KeyLogWriter write,
// Wireshark's tls.keylog_file): one secret per line,
//   <LABEL> <client random, 64 hex digits> <secret, hex>
// The TLS 1.3 labels QUIC needs are kept; others (CLIENT_RANDOM of TLS 1.2,
// EXPORTER_SECRET, ...) are read and skipped, as Wireshark does. A line
// that is not of this form is an error naming its line: a key log that
// half-loads would leave connections undecrypted with no word why.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rudp::quic {

enum class Secret : uint8_t {
  ClientEarly,
  ClientHandshake,
  ServerHandshake,
  ClientApplication,  // CLIENT_TRAFFIC_SECRET_0
  ServerApplication,  // SERVER_TRAFFIC_SECRET_0
};
inline constexpr int kSecretKinds = 5;

class KeyLog {
 public:
  using Random = std::array<uint8_t, 32>;
  using SecretSet = std::array<std::vector<uint8_t>, kSecretKinds>;  // empty: not logged

  // Reads `text` (a whole file's bytes). Returns "" or one line naming the
  // fault ("line 3: the client random is not 64 hex digits"). Lines read
  // before it stay.
  std::string add(std::string_view text);
  // Reads a file; the error names it. `growing`: a file another program may
  // still be writing, whose last line is left out when it has no end yet.
  std::string addFile(const std::string& path, bool growing = false);

  const SecretSet* find(const Random& clientRandom) const;
  size_t connections() const { return secrets_.size(); }
  bool empty() const { return secrets_.empty(); }

 private:
  std::map<Random, SecretSet> secrets_;
};

}  // namespace rudp::quic
