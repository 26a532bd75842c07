#include "capture/link_type.h"

#include <pcap/pcap.h>

namespace rudp {

namespace {

constexpr uint16_t kLinktypeAtmRfc1483 = 100, kLinktypeRaw = 101, kLinktypeLoop = 108;

}  // namespace

uint16_t linkTypeOfDlt(int dlt) {
  switch (dlt) {
    case DLT_RAW: return kLinktypeRaw;
    case DLT_ATM_RFC1483: return kLinktypeAtmRfc1483;
    case DLT_LOOP: return kLinktypeLoop;
    default: return uint16_t(dlt);
  }
}

int dltOfLinkType(uint16_t linkType) {
  switch (linkType) {
    case kLinktypeRaw: return DLT_RAW;
    case kLinktypeAtmRfc1483: return DLT_ATM_RFC1483;
    case kLinktypeLoop: return DLT_LOOP;
    default: return linkType;
  }
}

std::string dltName(int dlt) {
  const char* name = pcap_datalink_val_to_name(dlt);
  return name ? name : "DLT " + std::to_string(dlt);
}

}  // namespace rudp
