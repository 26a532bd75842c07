// rudpscope-cli wireshark install|status|uninstall|open: our dissectors in the
// user's Wireshark, and chosen frames of a capture opened in it.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "capture/frame_export.h"
#include "cli/commands.h"
#include "core/error.h"
#include "store/db_path.h"
#include "store/store_reader.h"
#include "wireshark/disabled_protocols.h"
#include "wireshark/dissector_installer.h"
#include "wireshark/frame_selection.h"
#include "wireshark/launch_command.h"
#include "wireshark/plugin_folder.h"
#include "wireshark/program_output.h"

namespace rudp::cli {

namespace ws = rudp::wireshark;

namespace {

void printFolder(const ws::LuaPluginFolder& folder, const std::string& sources) {
  std::printf("Wireshark personal Lua plugins folder: %s\n", folder.path.c_str());
  std::printf("  found: %s", folder.how.c_str());
  if (folder.version.known()) std::printf(" (tshark %s)", folder.version.text().c_str());
  std::printf("\nrudpscope's dissectors: %s\n", sources.c_str());
}

void printRootNote(const ws::LuaPluginFolder& folder) {
  const std::string note = ws::superuserNote(folder.version, ws::runningAsRoot());
  if (!note.empty()) std::printf("note: %s\n", note.c_str());
}

void printChanges(const std::vector<ws::FileChange>& changes) {
  for (const auto& c : changes) std::printf("  %-12s %s\n", c.name.c_str(), c.what.c_str());
}

int runStatus(const ws::DissectorInstaller& installer, const ws::LuaPluginFolder& folder) {
  for (const auto& f : installer.status())
    std::printf("  %-12s %-9s  %s\n", f.name.c_str(), ws::stateName(f.state), ws::stateMeaning(f.state));
  const ws::DisabledProtocols disabled(installer.configFolder());
  for (const auto& name : installer.replacedProtocols())
    std::printf("  %-12s %-9s  Wireshark's built-in %s, which ours replaces (%s)\n", name.c_str(),
                disabled.contains(name) ? "off" : "on", name.c_str(), disabled.path().c_str());
  printRootNote(folder);
  return 0;
}

std::string shellQuoted(const std::string& arg) {
  if (arg.find_first_of(" \t'\"\\$*?;&|<>()") == std::string::npos && !arg.empty()) return arg;
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<uint64_t> framesToOpen(const WiresharkArgs& args) {
  if (args.conn == 0) return ws::parseFrameList(args.frames);
  StoreReader reader(args.db.empty() ? defaultDatabasePath(args.capture) : args.db);
  auto frames = ws::connectionFrames(reader, args.conn);
  if (frames.empty())
    throw Error("connection " + std::to_string(args.conn) + " has no packets in the database");
  return frames;
}

std::string outputPath(const WiresharkArgs& args) {
  if (!args.output.empty()) return args.output;
  const auto stem = std::filesystem::path(args.capture).stem().string();
  return (std::filesystem::temp_directory_path() /
          (stem + "-rudpscope-" + std::to_string(::getpid()) + ".pcapng"))
      .string();
}

int runOpen(const WiresharkArgs& args, const ws::DissectorInstaller& installer) {
  if (args.frames.empty() == (args.conn == 0)) throw Error("give either --frames or --conn");
  const auto frames = framesToOpen(args);
  const std::string out = outputPath(args);
  const auto result = exportFrames(args.capture, frames, out);
  std::fprintf(stderr, "rudpscope-cli: %llu frame%s written to %s\n",
               static_cast<unsigned long long>(result.written), result.written == 1 ? "" : "s", out.c_str());
  if (!result.missing.empty())
    std::fprintf(stderr,
                 "rudpscope-cli: warning: %zu frames asked for are not in the capture (first: %llu)\n",
                 result.missing.size(), static_cast<unsigned long long>(result.missing.front()));
  const auto installed = installer.status();
  if (const auto caveat = ws::launchCaveat(installed); !caveat.empty())
    std::fprintf(stderr, "rudpscope-cli: %s\n", caveat.c_str());
  ws::LaunchOptions options;
  options.capture = out;
  options.sourceFolder = installer.sourceFolder();
  options.goToFrame = ws::renumbered(frames, args.goToFrame);
  options.displayFilter = args.displayFilter;
  options.disableProtocols = installer.replacedProtocols();
  const auto argv = ws::launchCommand(options, installed);
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + shellQuoted(a);
  std::printf("%s\n", line.c_str());
  if (args.dryRun) return 0;
  if (!ws::onPath(options.program))
    throw Error("Wireshark is not installed (no `wireshark` on PATH); the frames are in " + out);
  std::fflush(stdout);
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  ::execvp(cargv[0], cargv.data());
  throw Error("cannot start wireshark: " + std::string(errnoMessage(errno)));
}

}  // namespace

int runWireshark(const WiresharkArgs& args) {
  const ws::LuaPluginFolder folder = ws::findLuaPluginFolder();
  const ws::DissectorInstaller installer(defaultDissectorDir(), folder.path, folder.configPath);
  if (args.action == "open") return runOpen(args, installer);
  printFolder(folder, installer.sourceFolder());
  if (args.action == "status") return runStatus(installer, folder);
  printChanges(args.action == "install" ? installer.install(args.force) : installer.uninstall());
  printRootNote(folder);
  return 0;
}

}  // namespace rudp::cli
