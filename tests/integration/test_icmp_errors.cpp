// ICMP and ICMPv6 errors quoting a connection's datagram (port unreachable:
// the server went away; TTL exceeded; packet too big) belong to that
// connection. Each capture is built here around one flow; `decode` must print
// the quoted headers' fields as tshark 4.0 does, and `analyze` must attach
// every error to its connection and direction (the packets themselves say
// which) without counting it as one of the connection's packets.
#include <catch2/catch.hpp>

#include "capture_checks.h"
#include "grudp_flow.h"

using namespace rudp;
using namespace rudp::test;
using namespace rudp::testgen;
using namespace rudp::testgen::flow;

namespace {

const std::vector<std::string> kFields = {"frame.number",
                                          "ip.src",
                                          "ip.dst",
                                          "ip.proto",
                                          "ip.id",
                                          "ip.ttl",
                                          "ipv6.src",
                                          "ipv6.dst",
                                          "udp.srcport",
                                          "udp.dstport",
                                          "udp.length",
                                          "udp.stream",
                                          "udp.time_relative",
                                          "udp.time_delta",
                                          "tcp.srcport",
                                          "tcp.dstport",
                                          "tcp.seq",
                                          "tcp.ack",
                                          "tcp.len",
                                          "tcp.window_size_value",
                                          "icmp.type",
                                          "icmp.code",
                                          "icmpv6.type",
                                          "icmpv6.code"};

const nlohmann::json& errorsOf(const nlohmann::json& analysis) {
  return analysis["connections"][0]["icmp_errors"];
}

uint64_t icmpCount(const nlohmann::json& analysis, const char* direction) {
  return analysis["connections"][0]["directions"][direction]["icmp_errors"].get<uint64_t>();
}

void checkError(const nlohmann::json& e, uint64_t frame, const char* direction, const char* protocol,
                int type, int code, const char* description, const std::string& reporter) {
  INFO(e.dump());
  CHECK(e["frame"] == frame);
  CHECK(e["direction"] == direction);
  CHECK(e["protocol"] == protocol);
  CHECK(e["type"] == type);
  CHECK(e["code"] == code);
  CHECK(e["description"] == description);
  CHECK(e["reporter"] == reporter);
}

}  // namespace

TEST_CASE("ICMP errors quoting a GRUDP flow's datagrams both ways belong to its connection") {
  TempDir dir("icmp4");
  // A router drops client packet 0 (TTL exceeded, quoting its header and 8
  // bytes: the RFC 792 minimum); the client's host, whose game exited,
  // answers server packet 3 with port unreachable, quoting all of it.
  const std::vector<Bytes> errors = {
      inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(11, 0, head(grudpPacket(0, false), 28)))),
      inEthernet(ipv4(kClient, kServer, 1, icmp4Error(3, 3, grudpPacket(3, false)))),
      // Quoting a flow the capture does not hold, and an echo request: no connection's.
      inEthernet(
          ipv4(kRouter, kClient, 1,
               icmp4Error(3, 1, ipv4(kClient, {10, 9, 9, 9}, 17, udp(kClient, Ip4{10, 9, 9, 9}, 1, 2, {}))))),
      inEthernet(ipv4(kClient, kServer, 1, Bytes{8, 0, 0xf7, 0xff, 0, 0, 0, 0}))};
  const std::string capture = writeCapture(
      dir / "icmp4.pcap", 1, false, [](int, const Bytes& ip) { return inEthernet(ip); }, errors);
  INFO(capture);
  CHECK(compareWithTshark(capture, kFields) == kPackets + 4);
  const nlohmann::json j = analyzeJson(capture);
  REQUIRE(j["connections"].size() == 1);
  CHECK(packetsOf(j["connections"][0]) == kPackets);
  CHECK(icmpCount(j, "client_to_server") == 1);
  CHECK(icmpCount(j, "server_to_client") == 1);
  REQUIRE(errorsOf(j).size() == 2);
  checkError(errorsOf(j)[0], 7, "client_to_server", "icmp", 11, 0, "TTL exceeded in transit", "192.0.2.254");
  checkError(errorsOf(j)[1], 8, "server_to_client", "icmp", 3, 3, "port unreachable", "10.0.0.1");
}

TEST_CASE("ICMPv6 errors quoting an IPv6 GRUDP flow's datagrams belong to its connection") {
  TempDir dir("icmp6");
  const Bytes tooBig = grudpPacket(2, true), gone = grudpPacket(5, true);
  const std::vector<Bytes> errors = {
      inEthernet(ipv6(kRouter6, kClient6, 58, {}, icmp6Error(kRouter6, kClient6, 2, 0, tooBig))),
      inEthernet(ipv6(kServer6, kClient6, 58, {}, icmp6Error(kServer6, kClient6, 3, 0, head(tooBig, 48)))),
      inEthernet(ipv6(kClient6, kServer6, 58, {}, icmp6Error(kClient6, kServer6, 1, 4, gone)))};
  const std::string capture = writeCapture(
      dir / "icmp6.pcap", 1, true, [](int, const Bytes& ip) { return inEthernet(ip); }, errors);
  INFO(capture);
  CHECK(compareWithTshark(capture, kFields) == kPackets + 3);
  const nlohmann::json j = analyzeJson(capture);
  REQUIRE(j["connections"].size() == 1);
  CHECK(packetsOf(j["connections"][0]) == kPackets);
  CHECK(icmpCount(j, "client_to_server") == 2);
  CHECK(icmpCount(j, "server_to_client") == 1);
  REQUIRE(errorsOf(j).size() == 3);
  checkError(errorsOf(j)[0], 7, "client_to_server", "icmpv6", 2, 0, "packet too big", "2001:db8::fe");
  checkError(errorsOf(j)[1], 8, "client_to_server", "icmpv6", 3, 0, "hop limit exceeded in transit",
             "2001:db8::2");
  checkError(errorsOf(j)[2], 9, "server_to_client", "icmpv6", 1, 4, "port unreachable", "2001:db8::1");
}

namespace {

// An IPv4 TCP segment between the client (port 51000) and the server (443).
Bytes segment(bool client, uint32_t seq, uint32_t ack, uint8_t flags, size_t bytes) {
  const auto [a, b] = client ? std::pair{kClient, kServer} : std::pair{kServer, kClient};
  const uint16_t sport = client ? 51000 : 443, dport = client ? 443 : 51000;
  return ipv4(a, b, 6, tcp(a, b, sport, dport, seq, ack, flags, 64000, {}, pattern(bytes, 3)));
}

}  // namespace

TEST_CASE("an ICMP error quoting 8 bytes of a TCP segment belongs to its connection and shows its seq") {
  TempDir dir("icmp-tcp");
  const Bytes data = segment(true, 1001, 5001, kAckBit | kPsh, 100);
  std::vector<Frame> frames = {{inEthernet(segment(true, 1000, 0, kSyn, 0))},
                               {inEthernet(segment(false, 5000, 1001, kSyn | kAckBit, 0))},
                               {inEthernet(data)},
                               {inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(3, 1, head(data, 28))))},
                               {inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(3, 1, head(data, 60))))}};
  const std::string capture = writePcap(dir / "icmp-tcp.pcap", 1, frames);
  INFO(capture);
  CHECK(compareWithTshark(capture, kFields) == 5);
  const std::vector<std::string> lines = decodeLines(capture, {"tcp.seq", "tcp.ack", "tcp.len"});
  REQUIRE(lines.size() == 5);
  CHECK(lines[3] == "1001\t\t");
  CHECK(lines[4] == "1001\t5001\t");
  const nlohmann::json j = analyzeJson(capture);
  REQUIRE(j["connections"].size() == 1);
  CHECK(j["connections"][0]["protocol"] == "tcp");
  CHECK(packetsOf(j["connections"][0]) == 3);
  CHECK(icmpCount(j, "client_to_server") == 2);
  REQUIRE(errorsOf(j).size() == 2);
  checkError(errorsOf(j)[0], 4, "client_to_server", "icmp", 3, 1, "host unreachable", "192.0.2.254");
  checkError(errorsOf(j)[1], 5, "client_to_server", "icmp", 3, 1, "host unreachable", "192.0.2.254");
}

// Wireshark's TCP dissector runs on a whole quoted TCP header too: it starts
// or joins that conversation (tcp.stream, its times and completeness),
// without a SEQ/ACK analysis.
TEST_CASE("tcp.stream and its times count the TCP headers ICMP errors quote, as tshark's") {
  TempDir dir("icmp-tcp-stream");
  const Bytes syn = segment(true, 1000, 0, kSyn, 0);
  std::vector<Frame> frames = {{inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(3, 1, head(syn, 28))))},
                               {inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(3, 1, syn)))},
                               {inEthernet(syn)},
                               {inEthernet(segment(false, 5000, 1001, kSyn | kAckBit, 0))},
                               {inEthernet(segment(true, 1001, 5001, kAckBit | kPsh, 100))}};
  const std::string capture = writePcap(dir / "icmp-tcp-stream.pcap", 1, frames);
  const std::vector<std::string> fields = {
      "frame.number",   "tcp.stream",   "tcp.completeness", "tcp.time_relative",
      "tcp.time_delta", "tcp.analysis", "tcp.nxtseq",       "tcp.analysis.bytes_in_flight"};
  CHECK(compareWithTshark(capture, fields) == 5);
  const std::vector<std::string> lines = decodeLines(capture, {"tcp.stream", "tcp.completeness"});
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "\t");    // 8 bytes quoted: no TCP layer
  CHECK(lines[1] == "0\t0");  // the whole SYN quoted opens the conversation
  CHECK(lines[2] == "0\t1");  // and counts as its SYN
}

// And the UDP dissector on a quoted UDP header: it opens or joins that
// stream (udp.stream) without its times; an empty datagram has no times
// either, and neither moves the stream's previous frame on.
TEST_CASE("udp.stream and its times count quoted and empty datagrams as tshark does") {
  TempDir dir("icmp-udp-stream");
  auto datagram = [](const Ip4& src, const Ip4& dst, uint16_t sport, uint16_t dport, size_t bytes) {
    return ipv4(src, dst, 17, udp(src, dst, sport, dport, pattern(bytes, 7)));
  };
  const Bytes first = datagram(kClient, kServer, 50000, 7777, 40);
  std::vector<Frame> frames = {{inEthernet(ipv4(kServer, kClient, 1, icmp4Error(3, 3, first)))},
                               {inEthernet(first)},
                               {inEthernet(datagram(kServer, kClient, 7777, 50000, 0))},
                               {inEthernet(datagram(kClient, kServer, 50000, 7777, 40))},
                               {inEthernet(datagram(kClient, kServer, 50001, 7777, 40))}};
  const std::string capture = writePcap(dir / "icmp-udp-stream.pcap", 1, frames);
  const std::vector<std::string> fields = {"udp.stream", "udp.time_relative", "udp.time_delta"};
  CHECK(compareWithTshark(capture, fields) == 5);
  // Frames 20 ms apart: the stream starts at the error (frame 1), and frame 4's
  // previous frame is 2, past the empty datagram.
  CHECK(decodeLines(capture, fields) == std::vector<std::string>{"0\t\t", "0\t0.020000000\t0.020000000",
                                                                 "0\t\t", "0\t0.060000000\t0.040000000",
                                                                 "1\t0.000000000\t0.000000000"});
  // The same in the details tree, and the empty datagram's UDP layer ends
  // at its stream index: no timestamps, no payload, no dissector called.
  // (Not the ICMP error's frame: tshark runs GRUDP's dissector on the quoted
  // datagram, rudpscope does not.)
  std::vector<std::string> ts = {TSHARK_EXECUTABLE, "-n", "-r", capture, "-V", "-O", "udp", "-Y", "!icmp"};
  for (const auto& a : tsharkDissectorArgs()) ts.push_back(a);
  const ProcessResult t = run(ts),
                      o = run({RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "udp", "-Y", "!icmp"});
  REQUIRE(t.status == 0);
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  CHECK_THAT(o.out, Catch::Contains("    [Stream index: 0]\n\nFrame 4: "));
}

TEST_CASE("icmp.type and icmp.code of every ICMP message and of one an error quotes are tshark's") {
  TempDir dir("icmp-types");
  const Bytes echo4 = ipv4(kClient, kServer, 1, icmp4Error(8, 0, pattern(32, 1)));
  const Bytes echo6 =
      ipv6(kClient6, kServer6, 58, {}, icmp6Error(kClient6, kServer6, 128, 0, pattern(16, 2)));
  std::vector<Frame> frames = {
      {inEthernet(echo4)},
      {inEthernet(ipv4(kServer, kClient, 1, icmp4Error(0, 0, pattern(32, 1))))},
      {inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(11, 0, head(echo4, 36))))},
      {inEthernet(ipv4(kRouter, kClient, 1, icmp4Error(3, 13, head(echo4, 64))))},
      {inEthernet(echo6)},
      {inEthernet(ipv6(kRouter6, kClient6, 58, {}, icmp6Error(kRouter6, kClient6, 3, 0, head(echo6, 56))))},
      {inEthernet(ipv6(kServer6, kClient6, 58, {}, icmp6Error(kServer6, kClient6, 136, 0, pattern(20, 3))))},
      {inEthernet(ipv4(kClient, kServer, 1, Bytes{13, 0, 0, 0}))},  // shorter than a header: neither shown
      {inEthernet(ipv4(kClient, kServer, 1, Bytes{13, 0, 0, 0, 0, 0, 0, 0}))},
  };
  const std::string capture = writePcap(dir / "icmp-types.pcap", 1, frames);
  INFO(capture);
  CHECK(compareWithTshark(capture, kFields) == frames.size());
  const std::vector<std::string> lines =
      decodeLines(capture, {"icmp.type", "icmp.code", "icmpv6.type", "icmpv6.code"});
  REQUIRE(lines.size() == frames.size());
  CHECK(lines[2] == "11,8\t0,0\t\t");
  CHECK(lines[5] == "\t\t3,128\t0,0");
  CHECK(lines[7] == "\t\t\t");
  CHECK(lines[8] == "13\t0\t\t");
  // Each message's ICMP layer line, and frame.protocols naming what an error
  // quotes and an echo's data, as tshark's (the Frame layer expanded). Not
  // the last three: too short for their type, tshark adds a Malformed line.
  const ProcessResult t = run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-V", "-O", "frame", "-Y",
                               "frame.number <= 6"}),
                      o = run(
                          {RUDPSCOPE_CLI, "decode", capture, "-V", "-O", "frame", "-Y", "frame.number <= 6"});
  REQUIRE(o.status == 0);
  CHECK(o.out == t.out);
  for (const char* expected : {"[Protocols in frame: eth:ethertype:ip:icmp:ip:icmp:data]\n",
                               "[Protocols in frame: eth:ethertype:ipv6:icmpv6:ipv6:icmpv6:data]\n",
                               "\nInternet Control Message Protocol v6\n"})
    CHECK_THAT(o.out, Catch::Contains(expected));
  for (const char* filter :
       {"icmp.type == 8", "icmp.type == 0 || icmpv6.type == 136", "icmp.code == 13",
        "icmp.type == 11 && icmp.type == 8", "icmpv6.type in {1..4}", "!icmp.code", "icmp.type === 8"}) {
    INFO(filter);
    const ProcessResult ours = run({RUDPSCOPE_CLI, "decode", capture, "-Y", filter, "-e", "frame.number"});
    const ProcessResult theirs =
        run({TSHARK_EXECUTABLE, "-n", "-r", capture, "-Y", filter, "-T", "fields", "-e", "frame.number"});
    INFO(ours.err);
    CHECK(ours.status == 0);
    CHECK(ours.out == theirs.out);
    CHECK_FALSE(theirs.out.empty());
  }
}
