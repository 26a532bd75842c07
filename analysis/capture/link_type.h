// LINKTYPE_* (what pcap and pcapng files store) and DLT_* (what libpcap and
// the decoder use) differ only for the few DLTs whose numbers vary between
// platforms (DLT_RAW is 12 on Linux, LINKTYPE_RAW 101). One place converts.
#pragma once
#include <cstdint>
#include <string>

namespace rudp {

uint16_t linkTypeOfDlt(int dlt);
int dltOfLinkType(uint16_t linkType);
// libpcap's name ("EN10MB"), or "DLT 242" when it has none.
std::string dltName(int dlt);

}  // namespace rudp
