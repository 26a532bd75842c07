// The one line a user gets when a live capture cannot start, whichever way
// it captures (libpcap here, or dumpcap). Capture privileges belong to
// dumpcap, for members of the wireshark group, as Wireshark sets them up on
// Debian; never to rudpscope's own programs, which run Lua.
#pragma once
#include <string>

namespace rudp {

// The set-up, as one clause: dumpcap's capabilities and the group.
std::string captureSetupHint();

// dumpcap (or libpcap here) may not capture on `iface`.
std::string noPermissionError(const std::string& iface);

// dumpcap exists but this user may not run it.
std::string dumpcapNotAllowedError(const std::string& dumpcap);

// No dumpcap on PATH.
std::string noDumpcapError();

std::string noInterfaceError(const std::string& iface);
std::string badFilterError(const std::string& filter, const std::string& iface, const std::string& detail);
std::string captureFailedError(const std::string& iface, const std::string& detail);

}  // namespace rudp
