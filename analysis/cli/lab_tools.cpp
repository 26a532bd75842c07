#include "cli/lab_tools.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace rudp::cli {
namespace {

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

std::string kernelRelease() {
  utsname u{};
  return ::uname(&u) == 0 ? u.release : "";
}

// Why a program may be absent from an otherwise complete tools folder.
std::string whyAbsent(const std::string& program) {
  if (program == "kcp_workload")
    return " (built only where Go and golang-github-xtaci-kcp-dev are installed: "
           "tests/kcp_enet/build_kcp_workload.sh)";
  if (program == "enet_workload") return " (built only where libenet-dev is installed)";
  if (program == "udt_workload") return " (built in the build tree only, where libudt-dev is installed)";
  if (program == "quic_workload")
    return " (built in the build tree only, where Go >= 1.26 can fetch quic-go: "
           "tests/kcp_enet/build_quic_workload.sh)";
  return "";
}

}  // namespace

const std::vector<std::string>& labStacks() {
  static const std::vector<std::string> stacks = {"tcp-cubic", "tcp-bbr", "grudp", "enet",
                                                  "kcp",       "quic",    "udt",   "raknet"};
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
  if (stack == "raknet") return "raknet_workload.py";
  if (stack == "udt") return "udt_workload";
  if (stack == "quic") return "quic_workload";
  return {};
}

namespace {
// A kernel module that is loaded, or that the kernel can load: `dir` under
// /lib/modules/<release>/kernel, `name` without .ko.
bool kernelModule(const std::string& dir, const std::string& name) {
  if (fs::exists("/sys/module/" + name)) return true;
  const std::string base = "/lib/modules/" + kernelRelease() + "/kernel/" + dir + "/" + name + ".ko";
  for (const char* suffix : {"", ".xz", ".zst", ".gz"})
    if (fs::exists(base + suffix)) return true;
  return false;
}

// tcp-bbr needs the kernel's bbr: built in or loaded (listed as available),
// or a module the kernel loads on the first socket that asks for it.
std::string missingCongestionControl(const std::string& stack) {
  if (stack != "tcp-bbr") return {};
  std::ifstream available("/proc/sys/net/ipv4/tcp_available_congestion_control");
  std::string name, names;
  while (available >> name) {
    if (name == "bbr") return {};
    names += (names.empty() ? "" : " ") + name;
  }
  if (kernelModule("net/ipv4", "tcp_bbr")) return {};
  return "this kernel has no bbr congestion control (available: " + (names.empty() ? "none" : names) +
         "; no tcp_bbr module)";
}
}  // namespace

bool kernelHasNetem() { return kernelModule("net/sched", "sch_netem"); }

std::string labImpairmentLine() {
  return std::string(
             "impairment: loss by nftables (numgen random drop on the router's output, each way),"
             " one-way delay by delay_relay (every frame held in the router namespace); ") +
         (kernelHasNetem() ? "netem is there but not used: the relay's delay is the same on every kernel"
                           : "this kernel has no netem");
}

std::string missingLabTool(const std::string& dir, const std::string& stack) {
  if (std::string why = missingCongestionControl(stack); !why.empty()) return why;
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
