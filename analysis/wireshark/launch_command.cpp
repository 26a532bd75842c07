#include "wireshark/launch_command.h"

#include <filesystem>

namespace rudp::wireshark {

std::vector<std::string> launchCommand(const LaunchOptions& options,
                                       const std::vector<DissectorFile>& installed) {
  std::vector<std::string> argv = {options.program, "-r", options.capture};
  for (const auto& name : options.disableProtocols) argv.insert(argv.end(), {"--disable-protocol", name});
  for (const auto& f : installed)
    if (f.state == FileState::Missing)
      argv.insert(argv.end(),
                  {"-X", "lua_script:" + (std::filesystem::path(options.sourceFolder) / f.name).string()});
  if (options.goToFrame != 0) argv.insert(argv.end(), {"-g", std::to_string(options.goToFrame)});
  if (!options.displayFilter.empty()) argv.insert(argv.end(), {"-Y", options.displayFilter});
  return argv;
}

std::string launchCaveat(const std::vector<DissectorFile>& installed) {
  std::string names;
  for (const auto& f : installed)
    if (f.state != FileState::Installed && f.state != FileState::Missing)
      names += (names.empty() ? "" : ", ") + f.name + " (" + stateName(f.state) + ")";
  if (names.empty()) return {};
  return "Wireshark loads the copies in its plugin folder, not rudpscope's: " + names +
         "; install the dissectors to update them";
}

}  // namespace rudp::wireshark
