// rudpscope-cli decode -V [-O PROTO,...]: every frame's details as
// tshark -V -O PROTO prints them. The frame, link, IP and UDP/TCP layers are
// their one summary line each (as tshark prints a layer -O leaves out); the
// Lua protocols named (all of them without -O) are expanded, four spaces per
// level; a blank line ends each frame.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "session/dissectors.h"

namespace rudp {

// Calls `print` with each line (ending in '\n'). Returns what reading left to
// say (captureWarnings); a damaged capture throws DamagedCaptureError after
// the frames before the damage, unless `keepDamaged`. Throws Error naming a
// protocol in `expand` that no loaded dissector registers.
std::vector<std::string> printFrameTrees(const std::string& capture, const DissectorOptions& dissectors,
                                         const std::vector<std::string>& expand,
                                         const std::function<void(const std::string&)>& print,
                                         bool keepDamaged = false, const std::string& displayFilter = {});

}  // namespace rudp
