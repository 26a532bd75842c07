// The interfaces libpcap can capture on (pcap_findalldevs), loopback and
// Linux's "any" included, with their addresses.
#pragma once
#include <string>
#include <vector>

namespace rudp {

struct CaptureInterface {
  std::string name, description;
  std::vector<std::string> addresses;  // IPv4 and IPv6, as text
  bool loopback = false, up = false, running = false, wireless = false;
};

// Throws CaptureError when libpcap cannot list them.
std::vector<CaptureInterface> captureInterfaces();

}  // namespace rudp
