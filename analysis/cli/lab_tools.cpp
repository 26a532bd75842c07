#include "cli/lab_tools.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace rudp::cli {
namespace {

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

// Why a program may be absent from an otherwise complete tools folder.
std::string whyAbsent(const std::string& program) {
  if (program == "kcp_workload")
    return " (built only where Go and golang-github-xtaci-kcp-dev are installed: "
           "tests/kcp_enet/build_kcp_workload.sh)";
  if (program == "enet_workload") return " (built only where libenet-dev is installed)";
  return "";
}

}  // namespace

const std::vector<std::string>& labStacks() {
  static const std::vector<std::string> stacks = {"tcp-cubic", "tcp-bbr", "grudp", "enet", "kcp"};
  return stacks;
}

std::string labToolsDir() {
  if (const char* env = std::getenv("RUDPSCOPE_LAB_DIR"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  for (const fs::path& dir : {exe.parent_path().parent_path() / "lib" / "rudpscope" / "lab",
                              exe.parent_path().parent_path().parent_path() / "tests" / "lab" / "tools"})
    if (executable(dir / "lab_cell.sh")) return dir.string();
  return {};
}

std::string stackProgram(const std::string& stack) {
  if (stack == "tcp-cubic" || stack == "tcp-bbr") return "tcp_workload";
  if (stack == "grudp") return "grudp-endpoint";
  if (stack == "enet") return "enet_workload";
  if (stack == "kcp") return "kcp_workload";
  return {};
}

std::string missingLabTool(const std::string& dir, const std::string& stack) {
  for (const std::string& program : {std::string("lab_cell.sh"), std::string("delay_relay"),
                                     std::string("veth_offload"), stackProgram(stack)}) {
    const fs::path p = fs::path(dir) / program;
    if (program == "lab_cell.sh" ? !executable(p) || !fs::exists(fs::path(dir) / "three_ns.sh")
                                 : !executable(p))
      return program + " not found in " + dir + whyAbsent(program);
  }
  return {};
}

}  // namespace rudp::cli
