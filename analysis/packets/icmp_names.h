// The names tshark 4.0 gives ICMP and ICMPv6 message types and codes
// (packet-icmp.c's icmp_type_str and code tables, packet-icmpv6.c's
// icmpv6_type_val and code tables), for the Info column and the layers.
#pragma once
#include <string>

namespace rudp {

// "Echo (ping) request", ...; a router advertisement with code 0 or 16 is
// "Mobile IP Advertisement", an unlisted type "Unknown ICMP (obsolete or malformed?)".
std::string icmpTypeName(unsigned type, unsigned code);
// The code's name for the types tshark names codes of ("Unknown code: N"
// past the table); empty for the others.
std::string icmpCodeName(unsigned type, unsigned code);

// "Neighbor Solicitation", ...; "Unknown (N)" for an unlisted type.
std::string icmp6TypeName(unsigned type);
// The code's name for the types tshark names codes of; empty for the others.
std::string icmp6CodeName(unsigned type, unsigned code);

}  // namespace rudp
