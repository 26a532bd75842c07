// Finding and loading the dissector files a run uses.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lua/host.h"

namespace rudp {

namespace quic {
class KeyLog;
}

struct DissectorOptions {
  bool load_defaults = true;                               // every *.lua in the default folder
  std::vector<std::string> extra_scripts;                  // -X lua_script:FILE, loaded after the defaults
  std::vector<std::pair<std::string, std::string>> prefs;  // -o name:value
};

// $RUDPSCOPE_DISSECTORS, else <exe>/../share/rudpscope/dissectors, else the
// source tree's dissectors/ folder.
std::string defaultDissectorDir();

// The files a run loads, in load order: the default folder's *.lua sorted,
// then the extra scripts not already among them.
std::vector<std::string> dissectorFiles(const DissectorOptions& opts);

// What the dissection depends on, as one string: each file's name and
// content hash, then the preferences. Stored with a database so a later run
// can tell whether its analysis still stands (session/reuse.h).
std::string dissectorFingerprint(const DissectorOptions& opts);

// Loads the files into `host` and finishes loading. A script given twice
// (a default also passed with -X) is loaded once. Throws DissectorError.
void loadDissectors(LuaHost& host, const DissectorOptions& opts);

// The TLS key log QUIC's packets open with: tshark's preference
// tls.keylog_file (-o tls.keylog_file:FILE), else $SSLKEYLOGFILE when that
// names a file; "" when neither. It changes what is decoded, so it is one
// of the preferences the fingerprint holds.
std::string keyLogFile(const DissectorOptions& opts);
// That key log, read, with the TLS secrets `capture` carries before its
// first packet (pcapng decryption secrets blocks; none read for ""); null
// when there are none. Throws Error with one line naming the file (or the
// capture's secrets) and the line at fault.
std::shared_ptr<const quic::KeyLog> loadKeyLog(const DissectorOptions& opts, const std::string& capture);

}  // namespace rudp
