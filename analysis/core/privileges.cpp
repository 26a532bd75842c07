#include "core/privileges.h"

#include <linux/capability.h>
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace rudp {

namespace {

// The effective capability set, as two 32-bit words (capget's version 3).
uint64_t effectiveCapabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return 0;
  return uint64_t(data[0].effective) | uint64_t(data[1].effective) << 32;
}

const char* capabilityName(int bit) {
  switch (bit) {
    case CAP_NET_RAW: return "cap_net_raw";
    case CAP_NET_ADMIN: return "cap_net_admin";
    case CAP_SYS_ADMIN: return "cap_sys_admin";
    case CAP_DAC_OVERRIDE: return "cap_dac_override";
    case CAP_SETUID: return "cap_setuid";
    default: return nullptr;
  }
}

}  // namespace

std::string userName(uid_t uid) {
  passwd entry{};
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwuid_r(uid, &entry, buf.data(), buf.size(), &found) != 0 || !found) return {};
  return found->pw_name;
}

bool runsPrivileged() { return ::geteuid() == 0 || effectiveCapabilities() != 0; }

bool canCaptureDirectly() { return (effectiveCapabilities() >> CAP_NET_RAW & 1) != 0; }

std::string privilegeText() {
  if (::geteuid() == 0) return "root";
  std::string names;
  const uint64_t caps = effectiveCapabilities();
  for (int bit = 0; bit < 64; ++bit) {
    if (!(caps >> bit & 1)) continue;
    const char* name = capabilityName(bit);
    names += (names.empty() ? "" : ",") + (name ? std::string(name) : "cap_" + std::to_string(bit));
  }
  return "capabilities " + names;
}

}  // namespace rudp
