// Whether this process runs with privileges: as root, or with any effective
// capability (a setcap'd binary, a capability-granting wrapper). Such a
// process captures through libpcap itself and loads only trusted Lua files
// (lua/trusted_file.h); an unprivileged one captures through dumpcap.
#pragma once
#include <sys/types.h>

#include <string>

namespace rudp {

bool runsPrivileged();

// "root", or "capabilities cap_net_raw,cap_net_admin" (the effective set, by
// name where known): for the one line that says so.
std::string privilegeText();

// Whether the effective set holds CAP_NET_RAW, which capturing needs (root
// normally has it; root in a container without it does not).
bool canCaptureDirectly();

// The account name of `uid`; empty when it has none.
std::string userName(uid_t uid);

}  // namespace rudp
