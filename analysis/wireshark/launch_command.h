// The command line that opens a capture in Wireshark with our dissectors.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "wireshark/dissector_installer.h"

namespace rudp::wireshark {

struct LaunchOptions {
  std::string program = "wireshark";
  std::string capture;        // -r
  std::string sourceFolder;   // where our dissectors are (defaultDissectorDir())
  uint64_t goToFrame = 0;     // -g, 0: none (a frame number of `capture`)
  std::string displayFilter;  // -Y, empty: none
  // --disable-protocol for each: the built-ins ours replace
  // (DissectorInstaller::replacedProtocols()).
  std::vector<std::string> disableProtocols;
};

// argv: PROGRAM -r CAPTURE, --disable-protocol NAME for each replaced
// built-in, then -X lua_script:FILE for each of our
// dissectors missing from the plugin folder, then -g / -Y. An installed
// copy (current, outdated or not ours) is loaded by Wireshark itself; also
// passing ours would register the same protocol twice, which Wireshark
// refuses, so only missing ones are passed.
std::vector<std::string> launchCommand(const LaunchOptions& options,
                                       const std::vector<DissectorFile>& installed);

// One line about the dissectors Wireshark will use, when it is not simply
// ours (e.g. an outdated or foreign copy in the plugin folder); empty else.
std::string launchCaveat(const std::vector<DissectorFile>& installed);

}  // namespace rudp::wireshark
