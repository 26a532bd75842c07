// Compares `rudpscope-cli decode` with `tshark -T fields`, both loading every
// shipped dissector.
#pragma once
#include <string>
#include <vector>

namespace rudp::test {

// dissectors/*.lua of the source tree, sorted.
std::vector<std::string> shippedDissectors();
// tshark's arguments for loading them as Wireshark would once installed:
// --disable-protocol for each built-in one replaces ("-- rudpscope.replaces:"),
// then -X lua_script:FILE for each.
std::vector<std::string> tsharkDissectorArgs();

// Every committed capture tshark reads whole, sorted: tests/data/link and
// tests/kcp_enet/data (not the cut ones) and resources/sample.pcap. The TCP
// lab captures (tests/netns/data) are left out: tshark does not hand a
// retransmitted segment to its data dissector, and rudpscope has no TCP
// analysis in decode.
std::vector<std::string> committedCaptures();
// Every built-in field plus every field a shipped dissector registers.
std::vector<std::string> allDecodeFields();
// Runs both on `capture` with the fields and preferences (NAME:VALUE), and
// the display filter (-Y) if any, and checks, with Catch2, that they print
// the same lines. Returns the line count.
size_t compareWithTshark(const std::string& capture, const std::vector<std::string>& fields,
                         const std::vector<std::string>& prefs = {}, const std::string& displayFilter = {});

}  // namespace rudp::test
