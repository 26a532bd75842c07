// rudpscope-cli decode -V [-O PROTO,...]: every frame's details as
// tshark -V [-O PROTO,...] prints them. Without -O every layer is expanded,
// four spaces per level; with it only the layers named, the others being
// their one summary line each; a blank line ends each frame.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "lua/dissector_files.h"

namespace rudp {

// Calls `print` with each line (ending in '\n'). Returns what reading left to
// say (captureWarnings); a damaged capture throws DamagedCaptureError after
// the frames before the damage, unless `keepDamaged`. Throws Error naming a
// protocol in `expand` that is neither a built-in layer nor registered by a
// loaded dissector; an empty `expand` expands every layer.
std::vector<std::string> printFrameTrees(const std::string& capture, const DissectorOptions& dissectors,
                                         const std::vector<std::string>& expand,
                                         const std::function<void(const std::string&)>& print,
                                         bool keepDamaged = false, const std::string& displayFilter = {});

// rudpscope-cli decode without -e or -V: a line per frame as tshark prints
// without -V or -T fields (No. Time Source Destination Protocol Length Info,
// padded as its print_columns pads them, Time relative to the first frame).
std::vector<std::string> printFrameSummaries(const std::string& capture, const DissectorOptions& dissectors,
                                             const std::function<void(const std::string&)>& print,
                                             bool keepDamaged = false, const std::string& displayFilter = {});

}  // namespace rudp
