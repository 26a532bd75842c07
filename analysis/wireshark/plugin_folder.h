// Where the user's Wireshark loads personal Lua plugins from, found the way
// Wireshark reports it, and what the running Wireshark version means for
// loading them.
#pragma once
#include <string>

namespace rudp::wireshark {

struct WiresharkVersion {
  int major = 0, minor = 0, micro = 0;
  bool known() const { return major > 0; }
  std::string text() const;  // "4.0.17", "" when unknown
  bool atLeast(int maj, int min) const { return major > maj || (major == maj && minor >= min); }
};

struct LuaPluginFolder {
  std::string path;
  // How `path` was found: tshark's report or the documented default.
  enum class Source { Tshark, Default } source = Source::Default;
  std::string how;           // one line, e.g. "reported by `tshark -G folders`"
  WiresharkVersion version;  // of the tshark found; unknown without one
  // Wireshark's personal configuration folder (its `disabled_protos` lives
  // there): tshark's "Personal configuration:" line, else the documented
  // default.
  std::string configPath;
};

// Runs `tshark -G folders` and `tshark --version` (`tshark` from PATH unless
// given). Falls back to the documented default when tshark is missing or
// reports no personal Lua plugin folder.
LuaPluginFolder findLuaPluginFolder(const std::string& tshark = "tshark");

// The value of the "Personal Lua Plugins:" line of `tshark -G folders`;
// empty when there is none.
std::string parsePersonalLuaPlugins(const std::string& foldersOutput);
// The value of the "Personal configuration:" line; empty when there is none.
std::string parsePersonalConfiguration(const std::string& foldersOutput);
// From the first line of `tshark --version`, "TShark (Wireshark) 4.0.17 (...)".
WiresharkVersion parseTsharkVersion(const std::string& versionOutput);
// Wireshark's documented personal plugin folder for this platform, from
// HOME (APPDATA on Windows).
std::string defaultLuaPluginFolder();
// Wireshark's documented personal configuration folder:
// $XDG_CONFIG_HOME/wireshark, else ~/.config/wireshark (%APPDATA%\Wireshark).
std::string defaultConfigFolder();

// Whether Wireshark will load personal Lua plugins for this user, as one
// line, or empty when nothing needs saying (not root). `root`: the effective
// user id is 0.
std::string superuserNote(const WiresharkVersion& version, bool root);
// Whether that note is a warning: as root, Wireshark 4.4 and later (or an
// unknown version) loads no Lua plugin.
bool superuserBlocksLua(const WiresharkVersion& version, bool root);
bool runningAsRoot();

}  // namespace rudp::wireshark
