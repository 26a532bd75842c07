// Whole-file reads and atomic writes for the plugin folder.
#pragma once
#include <string>

namespace rudp::wireshark {

// Throws Error with a one-line message.
std::string readWholeFile(const std::string& path);
// Writes PATH.rudpscope-tmp beside `path`, then renames it over `path`: the
// plugin folder never holds half a file, even if Wireshark starts meanwhile.
void writeFileAtomically(const std::string& path, const std::string& contents);

}  // namespace rudp::wireshark
