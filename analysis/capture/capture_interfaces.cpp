#include "capture/capture_interfaces.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <sys/socket.h>

#include "core/error.h"

namespace rudp {

namespace {

std::string addressText(const sockaddr* sa) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (sa->sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, text, sizeof text);
  else if (sa->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, text, sizeof text);
  return text;
}

CaptureInterface interfaceOf(const pcap_if_t& dev) {
  CaptureInterface i;
  i.name = dev.name;
  if (dev.description) i.description = dev.description;
  i.loopback = dev.flags & PCAP_IF_LOOPBACK;
  i.up = dev.flags & PCAP_IF_UP;
  i.running = dev.flags & PCAP_IF_RUNNING;
  i.wireless = dev.flags & PCAP_IF_WIRELESS;
  for (const pcap_addr_t* a = dev.addresses; a; a = a->next)
    if (a->addr)
      if (std::string text = addressText(a->addr); !text.empty()) i.addresses.push_back(text);
  return i;
}

}  // namespace

std::vector<CaptureInterface> captureInterfaces() {
  char errbuf[PCAP_ERRBUF_SIZE] = {0};
  pcap_if_t* devs = nullptr;
  if (pcap_findalldevs(&devs, errbuf) != 0)
    throw CaptureError(std::string("cannot list interfaces: ") + errbuf);
  std::vector<CaptureInterface> out;
  for (const pcap_if_t* d = devs; d; d = d->next) out.push_back(interfaceOf(*d));
  pcap_freealldevs(devs);
  return out;
}

}  // namespace rudp
