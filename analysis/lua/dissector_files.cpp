#include "lua/dissector_files.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "capture/capture_reader.h"
#include "core/error.h"
#include "core/file_hash.h"
#include "core/install_paths.h"
#include "decode/tls_keylog.h"

namespace fs = std::filesystem;

namespace rudp {

namespace {
constexpr const char* kKeyLogPreference = "tls.keylog_file";
}

std::string defaultDissectorDir() {
  if (const char* env = std::getenv("RUDPSCOPE_DISSECTORS"); env && *env) return env;
  return installedOr("dissectors", RUDPSCOPE_DISSECTOR_DIR);
}

std::vector<std::string> dissectorFiles(const DissectorOptions& opts) {
  std::vector<fs::path> files;
  if (opts.load_defaults) {
    fs::path dir = defaultDissectorDir();
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file() && e.path().extension() == ".lua") files.push_back(e.path());
    if (ec) throw DissectorError("cannot list dissector folder '" + dir.string() + "': " + ec.message());
    std::sort(files.begin(), files.end());
  }
  for (const auto& s : opts.extra_scripts) {
    std::error_code ec;
    bool dup =
        std::any_of(files.begin(), files.end(), [&](const fs::path& f) { return fs::equivalent(f, s, ec); });
    if (!dup) files.emplace_back(s);
  }
  return {files.begin(), files.end()};
}

std::string dissectorFingerprint(const DissectorOptions& opts) {
  std::string out;
  for (const auto& f : dissectorFiles(opts)) {
    std::string hash;
    try {
      hash = hashFile(f);
    } catch (const Error&) {
      hash = "unreadable";  // loading it will fail with the reason
    }
    out += fs::path(f).filename().string() + ":" + hash + ";";
  }
  out += "|";
  for (const auto& [name, value] : opts.prefs) out += name + "=" + value + ";";
  if (const std::string keys = keyLogFile(opts); !keys.empty()) {
    try {
      out += "|keylog:" + hashFile(keys);
    } catch (const Error&) {
      out += "|keylog:unreadable";  // loading it will fail with the reason
    }
  }
  return out;
}

void loadDissectors(LuaHost& host, const DissectorOptions& opts) {
  for (const auto& f : dissectorFiles(opts)) host.loadScript(f);
  for (const auto& [name, value] : opts.prefs)
    if (name != kKeyLogPreference) host.setPreference(name, value);
  host.finishLoading();
}

std::string keyLogFile(const DissectorOptions& opts) {
  for (auto it = opts.prefs.rbegin(); it != opts.prefs.rend(); ++it)
    if (it->first == kKeyLogPreference) return it->second;
  const char* env = std::getenv("SSLKEYLOGFILE");
  std::error_code unreadable;
  return env && *env && fs::is_regular_file(env, unreadable) ? env : "";
}

std::shared_ptr<const quic::KeyLog> loadKeyLog(const DissectorOptions& opts, const std::string& capture) {
  const std::string path = keyLogFile(opts);
  const std::string embedded = capture.empty() ? std::string() : leadingTlsSecrets(capture);
  if (path.empty() && embedded.empty()) return nullptr;
  auto keys = std::make_shared<quic::KeyLog>();
  if (const std::string error = keys->add(embedded); !error.empty())
    throw Error(capture + ": its decryption secrets block, " + error);
  if (path.empty()) return keys;
  // $SSLKEYLOGFILE may be a browser's, still being appended to: its last
  // line may be half written.
  const bool fromEnvironment = std::none_of(opts.prefs.begin(), opts.prefs.end(),
                                            [](const auto& p) { return p.first == kKeyLogPreference; });
  if (const std::string error = keys->addFile(path, fromEnvironment); !error.empty()) throw Error(error);
  return keys;
}

}  // namespace rudp
