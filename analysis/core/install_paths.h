// Where the programs find what rudpscope installs beside them.
#pragma once
#include <string>

namespace rudp {

// <exe>/../share/rudpscope/NAME when the running program is installed and
// that file or folder exists; otherwise `fallback` (the source tree's copy,
// for programs run from the build tree).
std::string installedOr(const std::string& name, const std::string& fallback);

}  // namespace rudp
