// Wireshark's names of IP protocol numbers and DSCP code points, as tshark
// 4.0 prints them (the tables were read off its -V output, one packet per value).
#pragma once

namespace rudp {

const char* ipProtocolName(unsigned proto);  // "UDP", "Unassigned", ...
const char* dscpShortName(unsigned dscp);    // "CS0", "EF PHB": the DS field's summary
const char* dscpLongName(unsigned dscp);     // "Default", "Expedited Forwarding"

}  // namespace rudp
