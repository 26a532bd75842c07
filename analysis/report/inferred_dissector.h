// A Wireshark Lua dissector written from what the analysis inferred of a flow
// no dissector claims (analyzers/counter_inference.h): its own protocol
// name, the UDP port registration, a ProtoField per inferred field and the
// other bytes as bytes, and a rudpscope.contract block numbering the packets
// by the counter (`unreliable_seq`: a skipped number is a packet lost). It
// loads unchanged in tshark 4.0; the user renames and extends it.
#pragma once
#include <string>

#include "store/records.h"

namespace rudp::report {

// True when the analysis found a counter in `conn` (a flow no dissector
// claims) that a dissector can be written from.
bool hasInferredCounter(const ConnectionRecord& conn);

// The protocol name the dissector of `conn` gets: "inferred_<server port>".
std::string inferredProtocolName(const ConnectionSummary& conn);

// The dissector's text; `source` names the capture in its header comment.
// Requires a counter in at least one direction of `conn`.
std::string inferredDissector(const ConnectionRecord& conn, const std::string& source);

}  // namespace rudp::report
