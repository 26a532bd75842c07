#include "packets/icmp_names.h"

#include <initializer_list>
#include <utility>

namespace rudp {

namespace {

using Names = std::initializer_list<std::pair<unsigned, const char*>>;

// value_string lookup: the name of `value`, or null.
const char* find(Names names, unsigned value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return nullptr;
}

std::string orElse(const char* name, const std::string& fallback) { return name ? name : fallback; }

const Names kExtEchoRequestCodes = {{0, "No error"}};
const Names kExtEchoReplyCodes = {{0, "No error"},
                                  {1, "Malformed Query"},
                                  {2, "No Such Interface"},
                                  {3, "No Such Table Entry"},
                                  {4, "Multiple Interfaces Satisfy Query"}};

}  // namespace

std::string icmpTypeName(unsigned type, unsigned code) {
  if (type == 9 && (code == 0 || code == 16)) return "Mobile IP Advertisement";
  static const Names names = {{0, "Echo (ping) reply"},
                              {1, "Reserved"},
                              {2, "Reserved"},
                              {3, "Destination unreachable"},
                              {4, "Source quench (flow control)"},
                              {5, "Redirect"},
                              {6, "Alternate host address"},
                              {8, "Echo (ping) request"},
                              {9, "Router advertisement"},
                              {10, "Router solicitation"},
                              {11, "Time-to-live exceeded"},
                              {12, "Parameter problem"},
                              {13, "Timestamp request"},
                              {14, "Timestamp reply"},
                              {15, "Information request"},
                              {16, "Information reply"},
                              {17, "Address mask request"},
                              {18, "Address mask reply"},
                              {19, "Reserved (for security)"},
                              {30, "Traceroute"},
                              {31, "Datagram Conversion Error"},
                              {32, "Mobile Host Redirect"},
                              {33, "IPv6 Where-Are-You"},
                              {34, "IPv6 I-Am-Here"},
                              {35, "Mobile Registration Request"},
                              {36, "Mobile Registration Reply"},
                              {37, "Domain Name Request"},
                              {38, "Domain Name Reply"},
                              {39, "SKIP"},
                              {40, "Photuris"},
                              {41, "Experimental mobility protocols"},
                              {42, "Extended Echo request"},
                              {43, "Extended Echo reply"}};
  return orElse(find(names, type), "Unknown ICMP (obsolete or malformed?)");
}

std::string icmpCodeName(unsigned type, unsigned code) {
  static const Names unreach = {{0, "Network unreachable"},
                                {1, "Host unreachable"},
                                {2, "Protocol unreachable"},
                                {3, "Port unreachable"},
                                {4, "Fragmentation needed"},
                                {5, "Source route failed"},
                                {6, "Destination network unknown"},
                                {7, "Destination host unknown"},
                                {8, "Source host isolated"},
                                {9, "Network administratively prohibited"},
                                {10, "Host administratively prohibited"},
                                {11, "Network unreachable for TOS"},
                                {12, "Host unreachable for TOS"},
                                {13, "Communication administratively filtered"},
                                {14, "Host precedence violation"},
                                {15, "Precedence cutoff in effect"}};
  static const Names redirect = {{0, "Redirect for network"},
                                 {1, "Redirect for host"},
                                 {2, "Redirect for TOS and network"},
                                 {3, "Redirect for TOS and host"}};
  static const Names altHost = {{0, "Alternate address for host"}};
  static const Names routerAdvert = {{0, "Normal router advertisement"},
                                     {16, "Does not route common traffic"}};
  static const Names ttl = {{0, "Time to live exceeded in transit"},
                            {1, "Fragment reassembly time exceeded"}};
  static const Names param = {
      {0, "Pointer indicates the error"}, {1, "Required option missing"}, {2, "Bad length"}};
  static const Names photuris = {
      {0, "Bad SPI"},           {1, "Authentication Failed"}, {2, "Decompression Failed"},
      {3, "Decryption Failed"}, {4, "Need Authentication"},   {5, "Need Authorization"}};
  const Names* names = nullptr;
  switch (type) {
    case 3: names = &unreach; break;
    case 5: names = &redirect; break;
    case 6: names = &altHost; break;
    case 9: names = &routerAdvert; break;
    case 11: names = &ttl; break;
    case 12: names = &param; break;
    case 40: names = &photuris; break;
    case 42: names = &kExtEchoRequestCodes; break;
    case 43: names = &kExtEchoReplyCodes; break;
    default: return {};
  }
  return orElse(find(*names, code), "Unknown code: " + std::to_string(code));
}

std::string icmp6TypeName(unsigned type) {
  static const Names names = {{1, "Destination Unreachable"},
                              {2, "Packet Too Big"},
                              {3, "Time Exceeded"},
                              {4, "Parameter Problem"},
                              {100, "Private experimentation"},
                              {101, "Private experimentation"},
                              {127, "Reserved for expansion of ICMPv6 error messages"},
                              {128, "Echo (ping) request"},
                              {129, "Echo (ping) reply"},
                              {130, "Multicast Listener Query"},
                              {131, "Multicast Listener Report"},
                              {132, "Multicast Listener Done"},
                              {133, "Router Solicitation"},
                              {134, "Router Advertisement"},
                              {135, "Neighbor Solicitation"},
                              {136, "Neighbor Advertisement"},
                              {137, "Redirect"},
                              {138, "Router Renumbering"},
                              {139, "Node Information Query"},
                              {140, "Node Information Reply"},
                              {141, "Inverse Neighbor Discovery Solicitation"},
                              {142, "Inverse Neighbor Discovery Advertisement"},
                              {143, "Multicast Listener Report Message v2"},
                              {144, "Home Agent Address Discovery Request"},
                              {145, "Home Agent Address Discovery Reply"},
                              {146, "Mobile Prefix Solicitation"},
                              {147, "Mobile Prefix Advertisement"},
                              {148, "Certification Path Solicitation"},
                              {149, "Certification Path Advertisement"},
                              {150, "Experimental Mobility"},
                              {151, "Multicast Router Advertisement"},
                              {152, "Multicast Router Solicitation"},
                              {153, "Multicast Router Termination"},
                              {154, "FMIPv6"},
                              {155, "RPL Control"},
                              {156, "Locator Update"},
                              {157, "Duplicate Address Request"},
                              {158, "Duplicate Address Confirmation"},
                              {159, "MPL Control Message"},
                              {160, "Extended Echo request"},
                              {161, "Extended Echo reply"},
                              {200, "Private experimentation"},
                              {201, "Private experimentation"},
                              {255, "Reserved for expansion of ICMPv6 informational messages"}};
  return orElse(find(names, type), "Unknown (" + std::to_string(type) + ")");
}

std::string icmp6CodeName(unsigned type, unsigned code) {
  static const Names unreach = {{0, "no route to destination"},
                                {1, "Administratively prohibited"},
                                {2, "Beyond scope of source address"},
                                {3, "Address unreachable"},
                                {4, "Port unreachable"},
                                {5, "Source address failed ingress/egress policy"},
                                {6, "Reject route to destination"},
                                {7, "Error in Source Routing Header"}};
  static const Names timeExceeded = {{0, "hop limit exceeded in transit"},
                                     {1, "fragment reassembly time exceeded"}};
  static const Names param = {{0, "erroneous header field encountered"},
                              {1, "unrecognized Next Header type encountered"},
                              {2, "unrecognized IPv6 option encountered"},
                              {3, "IPv6 First Fragment has incomplete IPv6 Header Chain"}};
  static const Names renumbering = {{0, "Command"}, {1, "Result"}, {255, "Sequence number reset"}};
  static const Names niQuery = {{0, "Query subject = IPv6 addresses"},
                                {1, "Query subject = DNS name or empty"},
                                {2, "Query subject = IPv4 addresses"}};
  static const Names niReply = {{0, "Successful"}, {1, "Refused"}, {2, "Unknown query type"}};
  static const Names rpl = {{0x00, "DODAG Information Solicitation"},
                            {0x01, "DODAG Information Object"},
                            {0x02, "Destination Advertisement Object"},
                            {0x03, "Destination Advertisement Object Acknowledgment"},
                            {0x80, "Secure DODAG Information Solicitation"},
                            {0x81, "Secure DODAG Information Object"},
                            {0x82, "Secure Destination Advertisement Object"},
                            {0x83, "Secure Destination Advertisement Object Acknowledgment"},
                            {0x8A, "Consistency Check"},
                            {0x04, "P2P Discovery Reply Object"},
                            {0x84, "P2P Secure Discovery Reply Object"},
                            {0x05, "P2P Discovery Reply Object Acknowledgement"},
                            {0x85, "P2P Secure Discovery Reply Object Acknowledgement"}};
  const std::string unknown = "Unknown (" + std::to_string(code) + ")";
  switch (type) {
    case 1: return orElse(find(unreach, code), "Unknown");
    case 3: return orElse(find(timeExceeded, code), unknown);
    case 4: return orElse(find(param, code), unknown);
    case 138: return orElse(find(renumbering, code), unknown);
    case 139: return orElse(find(niQuery, code), unknown);
    case 140: return orElse(find(niReply, code), unknown);
    case 155: return orElse(find(rpl, code), unknown);
    case 160: return orElse(find(kExtEchoRequestCodes, code), unknown);
    case 161: return orElse(find(kExtEchoReplyCodes, code), unknown);
    default: return {};
  }
}

}  // namespace rudp
