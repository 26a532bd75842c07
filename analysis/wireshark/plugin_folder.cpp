#include "wireshark/plugin_folder.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "wireshark/program_output.h"

namespace rudp::wireshark {

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  const auto last = s.find_last_not_of(" \t\r");
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

std::string envOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

std::string WiresharkVersion::text() const {
  if (!known()) return {};
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(micro);
}

namespace {
std::string foldersLine(const std::string& foldersOutput, const std::string& key) {
  std::istringstream lines(foldersOutput);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(key, 0) == 0) return trimmed(line.substr(key.size()));
  return {};
}
}  // namespace

std::string parsePersonalLuaPlugins(const std::string& foldersOutput) {
  return foldersLine(foldersOutput, "Personal Lua Plugins:");
}

std::string parsePersonalConfiguration(const std::string& foldersOutput) {
  return foldersLine(foldersOutput, "Personal configuration:");
}

WiresharkVersion parseTsharkVersion(const std::string& versionOutput) {
  const std::string firstLine = versionOutput.substr(0, versionOutput.find('\n'));
  const auto paren = firstLine.find(')');  // after "TShark (Wireshark"
  WiresharkVersion v;
  if (paren == std::string::npos) return v;
  if (std::sscanf(firstLine.c_str() + paren + 1, " %d.%d.%d", &v.major, &v.minor, &v.micro) < 2) return {};
  return v;
}

// The Wireshark User's Guide, "Plugin folders" (4.0 and later): Unix-like
// systems (Linux and macOS) use ~/.local/lib/wireshark/plugins for personal
// Lua plugins (since 2.5; $XDG_CONFIG_HOME/wireshark/plugins is still read
// for backward compatibility only), Windows %APPDATA%\Wireshark\plugins.
std::string defaultLuaPluginFolder() {
#ifdef _WIN32
  return envOr("APPDATA", ".") + "\\Wireshark\\plugins";
#else
  return envOr("HOME", ".") + "/.local/lib/wireshark/plugins";
#endif
}

// The User's Guide, "Files and Folders": the personal configuration folder.
std::string defaultConfigFolder() {
#ifdef _WIN32
  return envOr("APPDATA", ".") + "\\Wireshark";
#else
  return envOr("XDG_CONFIG_HOME", envOr("HOME", ".") + "/.config") + "/wireshark";
#endif
}

LuaPluginFolder findLuaPluginFolder(const std::string& tshark) {
  LuaPluginFolder folder;
  const auto folders = programOutput({tshark, "-G", "folders"});
  if (const auto version = programOutput({tshark, "--version"}))
    folder.version = parseTsharkVersion(*version);
  folder.path = folders ? parsePersonalLuaPlugins(*folders) : std::string();
  folder.configPath = folders ? parsePersonalConfiguration(*folders) : std::string();
  if (folder.configPath.empty()) folder.configPath = defaultConfigFolder();
  if (!folder.path.empty()) {
    folder.source = LuaPluginFolder::Source::Tshark;
    folder.how = "reported by `" + tshark + " -G folders`";
    return folder;
  }
  folder.path = defaultLuaPluginFolder();
  folder.source = LuaPluginFolder::Source::Default;
  folder.how = folders ? "Wireshark's documented default (`" + tshark +
                             " -G folders` names no personal Lua plugin folder)"
                       : "Wireshark's documented default (`" + tshark + "` was not found or failed)";
  return folder;
}

bool runningAsRoot() { return ::geteuid() == 0; }

bool superuserBlocksLua(const WiresharkVersion& version, bool root) {
  return root && (!version.known() || version.atLeast(4, 4));
}

// Wireshark 4.4 loads no Lua plugin at all as root; 4.0's init.lua sets
// run_user_scripts_when_superuser = true, so it still loads them.
std::string superuserNote(const WiresharkVersion& version, bool root) {
  if (!root) return {};
  if (!version.known())
    return "running as root: Wireshark 4.4 and later load no Lua plugin for root; run it as a normal user";
  if (superuserBlocksLua(version, root))
    return "running as root: Wireshark " + version.text() +
           " loads no Lua plugin for root (neither these nor -X lua_script:); run it as a normal user";
  return "running as root: Wireshark " + version.text() + " loads personal Lua plugins for root too";
}

}  // namespace rudp::wireshark
