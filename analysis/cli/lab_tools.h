// Where `rudpscope-cli lab` finds its programs: the cell script
// (lab_cell.sh, with three_ns.sh beside it), the delay relay, veth_offload
// and each stack's endpoint.
#pragma once
#include <string>
#include <vector>

namespace rudp::cli {

// The stacks the lab knows, in the order the README lists them.
const std::vector<std::string>& labStacks();

// $RUDPSCOPE_LAB_DIR when set; else <exe>/../lib/rudpscope/lab when the
// program is installed; else the build tree's tests/lab/tools (rudpscope-cli
// is built in <build>/analysis/cli). Empty when none has lab_cell.sh.
std::string labToolsDir();

// The endpoint program a stack runs (tcp_workload, grudp-endpoint, ...).
std::string stackProgram(const std::string& stack);

// Whether the kernel can give tc's netem qdisc (loaded, built in with
// parameters, or a module file).
bool kernelHasNetem();
// The line lab prints first: how it impairs the path, and whether netem was there.
std::string labImpairmentLine();

// "" when `dir` holds everything a cell of `stack` runs and the kernel has
// what it needs (tcp-bbr: bbr), else one line naming what is missing and
// where it was looked for.
std::string missingLabTool(const std::string& dir, const std::string& stack);

}  // namespace rudp::cli
