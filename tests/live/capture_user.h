// The two ways a live capture runs: as root (libpcap in rudpscope's own
// process) and as a member of the wireshark group without privileges of its
// own (through dumpcap), the set-up the README gives users and
// packaging/debian-deps.sh --test makes: user rudpscope-test, in the
// wireshark group, dumpcap with cap_net_raw,cap_net_admin for that group.
#pragma once
#include <string>
#include <vector>

#include "process.h"

namespace rudp::test {

inline constexpr const char* kCaptureUser = "rudpscope-test";

enum class CaptureWay { Root, Dumpcap };

inline std::string wayName(CaptureWay way) { return way == CaptureWay::Root ? "root" : "wireshark group"; }

// argv run as the capture user (with its groups) for CaptureWay::Dumpcap.
inline std::vector<std::string> as(CaptureWay way, std::vector<std::string> argv) {
  if (way == CaptureWay::Root) return argv;
  std::vector<std::string> out{"setpriv", std::string("--reuid=") + kCaptureUser,
                               std::string("--regid=") + kCaptureUser, "--init-groups"};
  out.insert(out.end(), argv.begin(), argv.end());
  return out;
}

// A folder both ways may write in (the capture user writes its files there).
inline void openToCaptureUser(const TempDir& dir) {
  std::filesystem::permissions(dir.path, std::filesystem::perms::all);
}

// Fails with what to run when the set-up is missing.
void requireCaptureSetup();

}  // namespace rudp::test
