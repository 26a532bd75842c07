#include "decode/tls_keylog.h"

#include <fstream>
#include <sstream>

#include "decode/quic_crypto.h"

namespace rudp::quic {

namespace {

struct Label {
  std::string_view name;
  Secret secret;
};
constexpr Label kLabels[] = {
    {"CLIENT_EARLY_TRAFFIC_SECRET", Secret::ClientEarly},
    {"CLIENT_HANDSHAKE_TRAFFIC_SECRET", Secret::ClientHandshake},
    {"SERVER_HANDSHAKE_TRAFFIC_SECRET", Secret::ServerHandshake},
    {"CLIENT_TRAFFIC_SECRET_0", Secret::ClientApplication},
    {"SERVER_TRAFFIC_SECRET_0", Secret::ServerApplication},
};

// The line's three space-separated words; false when it has another count.
bool words(std::string_view line, std::string_view (&w)[3]) {
  size_t n = 0, i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size()) break;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (n == 3) return false;
    w[n++] = line.substr(start, i - start);
  }
  return n == 3;
}

std::string atLine(size_t number, const std::string& what) {
  return "line " + std::to_string(number) + ": " + what;
}

}  // namespace

std::string KeyLog::add(std::string_view text) {
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    std::string_view w[3];
    if (!words(line, w)) return atLine(number, "not '<label> <client random> <secret>'");
    Bytes random, secret;
    if (w[1].size() != 64 || !fromHex(std::string(w[1]), random))
      return atLine(number, "the client random is not 64 hex digits");
    if (!fromHex(std::string(w[2]), secret) || secret.empty()) return atLine(number, "the secret is not hex");
    for (const Label& l : kLabels) {
      if (l.name != w[0]) continue;
      Random key;
      std::copy(random.begin(), random.end(), key.begin());
      secrets_[key][size_t(l.secret)] = std::move(secret);
      break;
    }
  }
  return "";
}

std::string KeyLog::addFile(const std::string& path, bool growing) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read the key log " + path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (growing && !text.empty() && text.back() != '\n') text.erase(text.find_last_of('\n') + 1);
  const std::string error = add(text);
  return error.empty() ? "" : "key log " + path + " " + error;
}

const KeyLog::SecretSet* KeyLog::find(const Random& clientRandom) const {
  const auto it = secrets_.find(clientRandom);
  return it == secrets_.end() ? nullptr : &it->second;
}

}  // namespace rudp::quic
