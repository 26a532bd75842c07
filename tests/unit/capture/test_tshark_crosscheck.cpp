// Cross-checks the reader and decoder against tshark on the committed
// captures: times, addresses, ports, lengths, TCP sequence numbers and
// options must print identically. Also confirms tshark shows the GRUDP
// ports as plain UDP (no built-in dissector claims them).
#include <catch2/catch.hpp>

#include <cstdio>
#include <sstream>

#include "capture_test_util.h"
#include "process.h"

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

// tshark's lines for the fields; a tshark that exits otherwise than with
// `status` fails the test with its stderr.
std::vector<std::string> tsharkLines(const std::string& path, int status = 0) {
  std::vector<std::string> argv{
      TSHARK_EXECUTABLE, "-n", "-r",         path, "-o", "tcp.relative_sequence_numbers:FALSE", "-T",
      "fields",          "-E", "separator=|"};
  for (const char* f : kFields) argv.insert(argv.end(), {"-e", f});
  const ProcessResult r = run(argv);
  INFO(r.err);
  REQUIRE(r.status == status);
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
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
  // tshark exits with 2 on a file cut short, after the frames before the cut.
  const auto theirs = tsharkLines(path, 2);
  const auto ours = decodeFile(path);
  REQUIRE(ours.size() == 11);
  REQUIRE(theirs.size() == 11);
  for (size_t i = 0; i < ours.size(); ++i) CHECK(ourLine(ours[i].pkt) == theirs[i]);
}
