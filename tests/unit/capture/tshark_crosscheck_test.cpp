// Cross-checks the reader and decoder against tshark on the committed
// captures: times, addresses, ports, lengths, TCP sequence numbers and
// options must print identically. Also confirms tshark shows the GRUDP
// ports as plain UDP (no built-in dissector claims them).
#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>

#include "test_util.h"

using namespace rudp;
using namespace rudp::test;

namespace {

const char* const kFields[] = {
    "frame.number",
    "frame.time_epoch",
    "ip.src",
    "ip.dst",
    "ipv6.src",
    "ipv6.dst",
    "udp.srcport",
    "udp.dstport",
    "tcp.srcport",
    "tcp.dstport",
    "udp.length",
    "tcp.len",
    "tcp.seq",
    "tcp.options.mss_val",
    "tcp.options.wscale.shift",
    "tcp.options.timestamp.tsval",
    "tcp.options.timestamp.tsecr",
    "tcp.options.sack_le",
    "tcp.options.sack_re",
    "_ws.col.Protocol",
};

std::vector<std::string> tsharkLines(const std::string& path) {
  std::string cmd = std::string("'") + TSHARK_EXECUTABLE + "' -n -r '" + path +
                    "' -o tcp.relative_sequence_numbers:FALSE -T fields -E separator='|'";
  for (const char* f : kFields) cmd += std::string(" -e ") + f;
  cmd += " 2>/dev/null";
  std::vector<std::string> lines;
  std::FILE* p = popen(cmd.c_str(), "r");
  if (!p) return lines;
  std::string cur;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    cur += buf;
    if (!cur.empty() && cur.back() == '\n') {
      cur.pop_back();
      lines.push_back(cur);
      cur.clear();
    }
  }
  pclose(p);
  return lines;
}

std::string epoch(int64_t ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld.%09lld", (long long)(ns / 1000000000), (long long)(ns % 1000000000));
  return buf;
}

// The same fields, as our reader and decoder see the frame.
std::string ourLine(const DecodedPacket& p) {
  std::ostringstream s;
  const bool v4 = p.l3 == L3::IPv4, v6 = p.l3 == L3::IPv6;
  const bool udp = p.l4 == L4::UDP, tcp = p.l4 == L4::TCP;
  const TcpOptions& o = p.tcp.options;
  auto opt = [&](bool present, uint64_t v) { return present ? std::to_string(v) : std::string(); };
  s << p.frame << '|' << epoch(p.ts_ns) << '|' << (v4 ? p.src.toString() : "") << '|'
    << (v4 ? p.dst.toString() : "") << '|' << (v6 ? p.src.toString() : "") << '|'
    << (v6 ? p.dst.toString() : "") << '|' << opt(udp, p.sport) << '|' << opt(udp, p.dport) << '|'
    << opt(tcp, p.sport) << '|' << opt(tcp, p.dport) << '|' << opt(udp, p.payload_reported_len + 8) << '|'
    << opt(tcp, p.payload_len) << '|' << opt(tcp, p.tcp.seq) << '|' << opt(tcp && o.mss, o.mss) << '|'
    << opt(tcp && o.window_scale >= 0, uint64_t(o.window_scale)) << '|'
    << opt(tcp && o.has_timestamps, o.tsval) << '|' << opt(tcp && o.has_timestamps, o.tsecr) << '|'
    << opt(tcp && o.sack_block_count, o.sack_blocks[0].first) << '|'
    << opt(tcp && o.sack_block_count, o.sack_blocks[0].second) << '|'
    << (udp   ? "UDP"
        : tcp ? "TCP"
        : v4  ? "IPv4"
              : "IPv6");
  return s.str();
}

}  // namespace

TEST_CASE("tshark: reader and decoder agree with tshark on every link file", "[decode][tshark]") {
  for (const char* name :
       {"eth.pcap", "eth_vlan.pcap", "eth_qinq.pcap", "sll.pcap", "sll2.pcap", "null.pcap", "loop.pcap",
        "raw.pcap", "eth_nsec.pcap", "eth_swapped.pcap", "eth.pcapng", "eth_nsec.pcapng", "sll2.pcapng"}) {
    INFO(name);
    const std::string path = linkData(name);
    const auto theirs = tsharkLines(path);
    const auto ours = decodeFile(path);
    REQUIRE(theirs.size() == ours.size());
    for (size_t i = 0; i < ours.size(); ++i) CHECK(ourLine(ours[i].pkt) == theirs[i]);
  }
}

TEST_CASE("tshark: the truncated capture yields the same frames", "[decode][tshark]") {
  const std::string path = linkData("eth_truncated.pcap");
  const auto theirs = tsharkLines(path);
  const auto ours = decodeFile(path);
  REQUIRE(ours.size() == 11);
  REQUIRE(theirs.size() >= 11);  // tshark may list the cut frame too
  for (size_t i = 0; i < ours.size(); ++i) CHECK(ourLine(ours[i].pkt) == theirs[i]);
}
