#include "capture/capture_filter.h"

#include <pcap/pcap.h>

namespace rudp {

std::string captureFilterError(const std::string& filter, int dlt) {
  if (filter.empty()) return {};
  pcap_t* p = pcap_open_dead(dlt, 262144);
  if (!p) return "cannot check capture filter '" + filter + "': out of memory";
  bpf_program program;
  std::string why;
  if (pcap_compile(p, &program, filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0)
    why = "bad capture filter '" + filter + "': " + pcap_geterr(p);
  else
    pcap_freecode(&program);
  pcap_close(p);
  return why;
}

}  // namespace rudp
